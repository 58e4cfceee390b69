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
