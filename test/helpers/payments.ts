import { expect } from '@jest/globals';
import type { components } from '../../generated/checkout.js';
import { buildPaymentRequest } from './factories.js';
import type { TestServer } from './start-server.js';

/** Makes an authorised payment and returns its pspReference. */
export async function authorisedPayment(server: TestServer, overrides: Partial<components['schemas']['PaymentRequest']> = {}): Promise<string> {
  const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest(overrides) });
  expect(data?.resultCode).toBe('Authorised');
  return data!.pspReference!;
}

export const eur = (value: number) => ({ currency: 'EUR', value });

type Schemas = components['schemas'];
const onPayment = (psp: string) => ({ params: { path: { paymentPspReference: psp } } });

/** Captures `value` euro cents of a payment of DemoMerchantECOM; `body` adds or replaces request fields. */
export const capture = (server: TestServer, psp: string, value: number, body: Partial<Schemas['PaymentCaptureRequest']> = {}) =>
  server.checkout.POST('/payments/{paymentPspReference}/captures', {
    ...onPayment(psp),
    body: { merchantAccount: 'DemoMerchantECOM', amount: eur(value), ...body },
  });

/** Refunds `value` euro cents of a payment of DemoMerchantECOM; `body` adds or replaces request fields. */
export const refund = (server: TestServer, psp: string, value: number, body: Partial<Schemas['PaymentRefundRequest']> = {}) =>
  server.checkout.POST('/payments/{paymentPspReference}/refunds', {
    ...onPayment(psp),
    body: { merchantAccount: 'DemoMerchantECOM', amount: eur(value), ...body },
  });

/** Cancels a payment of DemoMerchantECOM by its pspReference; `body` adds or replaces request fields. */
export const cancel = (server: TestServer, psp: string, body: Partial<Schemas['PaymentCancelRequest']> = {}) =>
  server.checkout.POST('/payments/{paymentPspReference}/cancels', { ...onPayment(psp), body: { merchantAccount: 'DemoMerchantECOM', ...body } });
