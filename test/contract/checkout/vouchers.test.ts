import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_METHOD_NOT_SUPPORTED } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { advanceClock, recordedEvents, storedPayment } from '../../helpers/methods.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type Voucher = { type: string; reference: string; entity?: string; expiresAt: string; downloadUrl: string; totalAmount: { value: number } };
const boleto = {
  amount: { currency: 'BRL', value: 15000 },
  shopperName: { firstName: 'José', lastName: 'Silva' },
  socialSecurityNumber: '56861752509',
  billingAddress: { street: 'Rua Funcionarios', houseNumberOrName: '952', city: 'São Paulo', postalCode: '04386040', stateOrProvince: 'SP', country: 'BR' },
  paymentMethod: { type: 'boletobancario' },
};

describe('POST /payments with vouchers (Multibanco, Boleto)', () => {
  test('When Multibanco is paid with, then the shopper gets a voucher (entity, reference, expiry) and paying it on the sandbox page authorises the payment', async () => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'multibanco' } }) });
    expect(data).toMatchObject({
      resultCode: 'PresentToShopper',
      action: { type: 'voucher', paymentMethodType: 'multibanco', entity: '12345', totalAmount: { currency: 'EUR', value: 1000 } },
    });
    const voucher = data!.action as Voucher;
    expect(voucher.reference).toMatch(/^\d{9}$/);
    expect(Date.parse(voucher.expiresAt) - server.clock.now().getTime()).toBeGreaterThan(71 * 3600 * 1000);
    const page = await fetch(voucher.downloadUrl);
    expect(await page.text()).toContain(voucher.reference);
    expect((await fetch(`${voucher.downloadUrl}/pay`, { method: 'POST' })).status).toBe(200);
    await server.dispatcher.drain();
    expect((await storedPayment(server, data!.pspReference!))?.resultCode).toBe('Authorised');
    expect(await recordedEvents(server, data!.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
  });

  test('When a Boleto is paid with, then the voucher is the barcode line with the payer, and it needs BRL and the payer details', async () => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest(boleto as never) });
    expect(data).toMatchObject({ resultCode: 'PresentToShopper', action: { type: 'voucher', paymentMethodType: 'boletobancario', shopperName: 'José Silva' } });
    expect((data!.action as Voucher).reference).toMatch(/^\d{47}$/);
    const euros = await server.checkout.POST('/payments', { body: buildPaymentRequest({ ...boleto, amount: { currency: 'EUR', value: 100 } } as never) });
    expect(euros.error?.errorCode).toBe(ERR_METHOD_NOT_SUPPORTED.code);
    const { socialSecurityNumber: _cpf, ...withoutCpf } = boleto;
    const missing = await server.checkout.POST('/payments', { body: buildPaymentRequest(withoutCpf as never) });
    expect(missing.error).toMatchObject({ errorCode: '158', message: "Required field 'socialSecurityNumber' is not provided" });
  });

  test('When a voucher is not paid before it expires, then the offer closes (OFFER_CLOSED) and it can no longer be paid', async () => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest(boleto as never) });
    await advanceClock(server, 5 * 24 * 3600 + 60);
    expect((await storedPayment(server, data!.pspReference!))?.resultCode).toBe('Cancelled');
    expect(await recordedEvents(server, data!.pspReference!)).toEqual(['OFFER_CLOSED:true']);
    expect((await fetch(`${(data!.action as Voucher).downloadUrl}/pay`, { method: 'POST' })).status).toBe(404);
  });
});
