/**
 * The official Adyen Node library (31.0.0, the last that speaks Checkout v71) pointed at a test
 * server. The library has no endpoint setting, so every service's base URL is rewritten to the
 * server; it speaks HTTPS only, hence the test certificate.
 */
import { createRequire } from 'node:module';

import type * as AdyenLibrary from '@adyen/api-library';

const require = createRequire(import.meta.url);

const adyen = require('@adyen/api-library') as typeof AdyenLibrary;
const Service = (require('@adyen/api-library/lib/src/service') as { default: { prototype: { createBaseUrl(url: string): string } } }).default;

let target = '';
// eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with its `this` below
const original = Service.prototype.createBaseUrl;
Service.prototype.createBaseUrl = function rewrite(this: unknown, url: string): string {
  const resolved = original.call(this, url);
  if (!target) return resolved;
  return resolved
    .replace(/^https:\/\/checkout-test\.adyen\.com\/v\d+/, `${target}/checkout/v71`)
    .replace(/^https:\/\/management-test\.adyen\.com\/v3/, `${target}/management/v3`);
};

/** Points every service created from now on at `baseUrl` (e.g. https://localhost:1234). */
export function pointAdyenLibraryAt(baseUrl: string): void {
  target = baseUrl;
}

export function adyenClient(apiKey: string) {
  return new adyen.Client({ apiKey, environment: adyen.EnvironmentEnum.TEST });
}

export const { CheckoutAPI, ManagementAPI, HttpClientException, hmacValidator, Types } = adyen;
