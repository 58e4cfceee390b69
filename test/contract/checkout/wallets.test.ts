import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { recordedEvents } from '../../helpers/methods.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const token = (card: Record<string, string>) => Buffer.from(JSON.stringify(card)).toString('base64');
const pay = (paymentMethod: Record<string, string>) =>
  server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: paymentMethod as never }) });

describe('POST /payments with Apple Pay and Google Pay', () => {
  test('When an Apple Pay test token names a Mastercard, then the payment is authorised with that brand and the applepay variant', async () => {
    const { data } = await pay({ type: 'applepay', applePayToken: token({ number: '5555555555554444', expiryMonth: '03', expiryYear: '2030' }) });
    expect(data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'applepay', brand: 'mc' } });
    expect(data?.additionalData).toMatchObject({ paymentMethod: 'mc', paymentMethodVariant: 'mc_applepay', cardSummary: '4444' });
    expect(await recordedEvents(server, data!.pspReference!)).toEqual(['AUTHORISATION:true']);
  });

  test('When a real-looking Apple Pay token is sent, then the default test card (Visa) pays', async () => {
    const real = token({
      version: 'EC_v1',
      data: 'c2lnbmVkIGRhdGE=',
      signature: 'MIAGCSqGSIb3DQEHAqCAMIACAQEx',
      header: { ephemeralPublicKey: 'MFkw', transactionId: 'ab12' },
    } as never);
    const { data } = await pay({ type: 'applepay', applePayToken: real });
    expect(data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'applepay', brand: 'visa' } });
  });

  test('When a Google Pay token (JSON as Google returns it) comes with a card network, then that network test card pays', async () => {
    const googleToken = JSON.stringify({ signature: 'MEUCIQ', protocolVersion: 'ECv2', signedMessage: '{"encryptedMessage":"x"}' });
    const { data } = await pay({ type: 'googlepay', googlePayToken: googleToken, googlePayCardNetwork: 'AMEX' });
    expect(data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'googlepay', brand: 'amex' } });
    expect(data?.additionalData?.paymentMethodVariant).toBe('amex_googlepay');
  });

  test('When a test token names a refusal holder or an expired card, then the payment is refused as the card would be', async () => {
    const refused = await pay({ type: 'googlepay', googlePayToken: token({ number: '4111111111111111', holderName: 'DECLINED' }) });
    expect(refused.data).toMatchObject({ resultCode: 'Refused', refusalReason: 'Refused' });
    const expired = await pay({ type: 'applepay', applePayToken: token({ number: '4111111111111111', expiryMonth: '01', expiryYear: '2020' }) });
    expect(expired.data).toMatchObject({ resultCode: 'Refused', refusalReason: 'Expired Card' });
  });

  test('When the Apple Pay token is missing, then the answer is 422 naming it', async () => {
    const { error } = await pay({ type: 'applepay' });
    expect(error).toMatchObject({ status: 422, errorCode: '158', message: "Required field 'paymentMethod.applePayToken' is not provided" });
  });
});
