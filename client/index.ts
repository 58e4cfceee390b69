/**
 * Typed clients for both areas, generated from the bundled specs:
 *   const checkout = createCheckoutClient({ baseUrl: 'http://localhost:8080/checkout/v71', apiKey });
 *   const { data, error } = await checkout.POST('/payments', { body });
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import type { paths as CheckoutPaths } from '../generated/checkout.js';
import type { paths as ManagementPaths } from '../generated/management.js';

export type { CheckoutPaths, ManagementPaths };

export interface ClientOptions {
  /** The area's base address, e.g. `http://localhost:8080/checkout/v71`. */
  baseUrl: string;
  /** Sent as `X-API-Key`. */
  apiKey?: string;
  /** Basic authentication: the credential's username and one of its API keys. */
  basic?: { username: string; password: string };
  /** Replaces the global fetch (tests, proxies). */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** Authenticates every request with `X-API-Key`, or with Basic when no key is given. */
export function authentication(options: Pick<ClientOptions, 'apiKey' | 'basic'>): Middleware {
  return {
    onRequest({ request }) {
      if (options.apiKey !== undefined) {
        request.headers.set('X-API-Key', options.apiKey);
      } else if (options.basic) {
        const token = Buffer.from(`${options.basic.username}:${options.basic.password}`, 'utf8').toString('base64');
        request.headers.set('Authorization', `Basic ${token}`);
      }
      return request;
    },
  };
}

/** Gives every POST an `Idempotency-Key` (a new UUID) unless the caller set one, so retries are safe. */
export function idempotencyKey(generate: () => string = randomUUID): Middleware {
  return {
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', generate());
      return request;
    },
  };
}

function baseOptions(options: ClientOptions) {
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.headers && { headers: options.headers }),
  };
}

/** A client of the checkout area; every POST carries an Idempotency-Key. */
export function createCheckoutClient(options: ClientOptions): Client<CheckoutPaths> {
  const client = createClient<CheckoutPaths>(baseOptions(options));
  client.use(authentication(options), idempotencyKey());
  return client;
}

/** A client of the management area. */
export function createManagementClient(options: ClientOptions): Client<ManagementPaths> {
  const client = createClient<ManagementPaths>(baseOptions(options));
  client.use(authentication(options));
  return client;
}

export { hmacBase64, type Notification, type NotificationRequestItem, signingString, signItem, verifyHmacSignature } from './webhooks.js';
