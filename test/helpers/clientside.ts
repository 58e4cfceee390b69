/**
 * Calls of the client-side area as Adyen's web library makes them: from a shop page (Origin) with
 * a client key in the query, JSON bodies; and the arrangements they need (a credential with the
 * shop's origin, a session).
 */
import { CHECKOUT_ROLES } from '../../server/kernel/auth/roles.js';
import { DEMO } from '../../server/seed.js';
import { eur } from './payments.js';
import type { TestServer } from './start-server.js';

export const SHOP = 'https://www.shop-dropin.example.com';

/** A merchant credential of DemoMerchantECOM for a web shop: checkout roles, the shop's origin; returns its client key. */
export async function shopClientKey(server: TestServer, allowedOrigins: string[] = [SHOP], roles: readonly string[] = CHECKOUT_ROLES): Promise<string> {
  const { data } = await server.management.POST('/merchants/{merchantId}/apiCredentials', {
    params: { path: { merchantId: DEMO.merchantEcom } },
    body: { roles: [...roles], allowedOrigins },
  });
  return data!.clientKey;
}

/** The client key of the demo merchant credential (DemoMerchantECOM's seeded one), as a shop's backend reads it. */
export async function demoClientKey(server: TestServer): Promise<string> {
  const { data } = await server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
    params: { path: { merchantId: DEMO.merchantEcom, apiCredentialId: DEMO.merchantCredentialId } },
  });
  return data!.clientKey;
}

/** A session of DemoMerchantECOM for EUR 10.00, created with the company's API key (as the merchant's server does). */
export async function createSession(server: TestServer, overrides: Record<string, unknown> = {}) {
  const { data } = await server.checkout.POST('/sessions', {
    body: {
      merchantAccount: DEMO.merchantEcom,
      amount: eur(1000),
      reference: 'dropin-order',
      returnUrl: 'https://shop.example.com/return',
      ...overrides,
    },
  });
  return { id: data!.id, sessionData: data!.sessionData! };
}

export interface BrowserCall {
  clientKey: string | undefined;
  origin?: string | undefined;
  /** The query parameter the key travels in: `clientKey`, or `token` (the BIN lookup). */
  keyParam?: 'clientKey' | 'token';
}

/** POSTs JSON to a client-side path as the library does; answers the status, the CORS header and the parsed body. */
export async function fromBrowser(server: TestServer, path: string, body: unknown, call: BrowserCall) {
  const query = call.clientKey === undefined ? '' : `?${call.keyParam ?? 'clientKey'}=${encodeURIComponent(call.clientKey)}`;
  const response = await fetch(`${server.clientsideUrl}${path}${query}`, {
    method: 'POST',
    headers: {
      Accept: 'application/json, text/plain, */*',
      'Content-Type': 'application/json',
      ...(call.origin !== undefined && { Origin: call.origin }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, allowOrigin: response.headers.get('access-control-allow-origin'), body: text ? JSON.parse(text) : undefined };
}

/** The card payment state data Drop-in sends (test_-prefixed encrypted fields, as the sandbox reads them). */
export const dropinCard = (number = '4111111111111111', holderName = 'John Smith') => ({
  type: 'scheme',
  encryptedCardNumber: `test_${number}`,
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
  holderName,
  checkoutAttemptId: 'fetch-checkoutAttemptId-failed',
});
