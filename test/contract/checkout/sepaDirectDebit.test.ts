import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_INVALID_HOLDER_NAME, ERR_INVALID_IBAN } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { advanceClock, recordedEvents, storedPayment } from '../../helpers/methods.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const debit = (iban: string, ownerName: string) =>
  server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'sepadirectdebit', iban, ownerName } }) });

describe('POST /payments with SEPA Direct Debit', () => {
  test('When a valid IBAN and owner are sent, then the debit is Received and authorised by event a day later', async () => {
    const { data } = await debit('NL13 TEST 0123 4567 89', 'A. Klaassen');
    expect(data).toMatchObject({ resultCode: 'Received', paymentMethod: { type: 'sepadirectdebit' } });
    expect(data?.additionalData).toMatchObject({ 'sepadirectdebit.ibanNumber': 'NL13**********6789', 'sepadirectdebit.ownerName': 'A. Klaassen' });
    expect(JSON.stringify(data)).not.toContain('0123456789');
    expect(data?.action).toBeUndefined();
    const psp = data!.pspReference!;
    await advanceClock(server, 23 * 3600);
    expect(await recordedEvents(server, psp)).toEqual([]);
    await advanceClock(server, 3600);
    expect((await storedPayment(server, psp))?.resultCode).toBe('Authorised');
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true']);
  });

  test.each([
    ['DE87123456781234567890', 'NOT_ENOUGH_BALANCE', 'Not enough balance'],
    ['NL85ABNA0000000000', 'A. Schneider', 'Not enough balance'],
    ['NL98ABNA0410108103', 'REFUSED', 'Refused'],
  ])('When the IBAN is %s and the owner %s, then the debit is Received and refused a day later (%s)', async (iban, ownerName, reason) => {
    const { data } = await debit(iban, ownerName);
    expect(data?.resultCode).toBe('Received');
    await advanceClock(server, 24 * 3600);
    expect(await storedPayment(server, data!.pspReference!)).toMatchObject({ resultCode: 'Refused', refusalReason: reason });
    expect(await recordedEvents(server, data!.pspReference!)).toEqual(['AUTHORISATION:false']);
  });

  test.each([
    ['NL13TEST0123456788', 'the check digits'],
    ['NL13TEST012345678', 'has 18 characters'],
    ['US12345678901234567890', 'not a SEPA country'],
    ['not an iban', 'letters and digits'],
  ])('When the IBAN is %s, then the answer is 422 with code 161 and no payment is made', async (iban, why) => {
    const { error } = await debit(iban, 'A. Klaassen');
    expect(error).toMatchObject({ status: 422, errorCode: ERR_INVALID_IBAN.code, message: expect.stringContaining(why) });
  });

  test('When the owner name is blank or has digits, then the answer is 422 with code 203', async () => {
    expect((await debit('NL13TEST0123456789', ' ')).error?.errorCode).toBe(ERR_INVALID_HOLDER_NAME.code);
    expect((await debit('NL13TEST0123456789', 'R2D2')).error?.errorCode).toBe(ERR_INVALID_HOLDER_NAME.code);
  });
});
