/**
 * The typed clients of the console: its own API and the public checkout and management APIs, all
 * on this origin and authenticated by the session cookie alone. The UI holds no privilege of its
 * own: every call is authorized by the server as the signed-in credential's call would be.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components as ConsoleComponents, paths as ConsolePaths } from '../../generated/console.js';
import type { components as CheckoutComponents, paths as CheckoutPaths } from '../../generated/checkout.js';
import type { components as ManagementComponents, paths as ManagementPaths } from '../../generated/management.js';

/** The base paths of server/base-paths.json (the UI imports nothing of the server's). */
export const BASE = { console: '/console/api', checkout: '/checkout/v71', management: '/management/v3' } as const;

export type Session = ConsoleComponents['schemas']['ConsoleSession'];
export type Payment = ConsoleComponents['schemas']['ConsolePayment'];
export type PaymentStatus = ConsoleComponents['schemas']['ConsolePaymentStatus'];
export type Timeline = ConsoleComponents['schemas']['PaymentTimeline'];
export type TimelineEntry = ConsoleComponents['schemas']['TimelineEntry'];
export type Delivery = ConsoleComponents['schemas']['ConsoleDelivery'];
export type RequestLogEntry = ConsoleComponents['schemas']['RequestLogEntry'];
export type RequestLogDetail = ConsoleComponents['schemas']['RequestLogEntryDetail'];
export type Amount = ConsoleComponents['schemas']['Amount'];
export type Webhook = ManagementComponents['schemas']['Webhook'];
export type TestOutput = ManagementComponents['schemas']['TestOutput'];
export type SandboxClock = CheckoutComponents['schemas']['SandboxClock'];
export type ClockAdvance = ConsoleComponents['schemas']['ConsoleClockAdvance'];
export type DueItem = ConsoleComponents['schemas']['DueItem'];

export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['pending', 'authorised', 'captured', 'refunded', 'chargedBack', 'cancelled', 'refused', 'error'];

let csrfToken: string | undefined;
let onSignedOut: () => void = () => {};

/** The CSRF token of the session (kept in memory only, like the session itself: the cookie is HttpOnly). */
export function setSessionToken(token: string | undefined): void {
  csrfToken = token;
}

/** What to do when the server says the session is gone (401): show the sign-in page. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const session: Middleware = {
  onRequest({ request }) {
    // The server refuses an unsafe request carried by the cookie without the session's token.
    if (!SAFE.has(request.method) && csrfToken) request.headers.set('X-Console-Csrf', csrfToken);
    return request;
  },
  onResponse({ response, request }) {
    const signingIn = request.method === 'POST' && new URL(request.url).pathname === `${BASE.console}/session`;
    if (response.status === 401 && !signingIn) onSignedOut();
    return response;
  },
};

const options = { credentials: 'same-origin' as const };

export const consoleApi = createClient<ConsolePaths>({ baseUrl: BASE.console, ...options });
export const checkoutApi = createClient<CheckoutPaths>({ baseUrl: BASE.checkout, ...options });
export const managementApi = createClient<ManagementPaths>({ baseUrl: BASE.management, ...options });
for (const client of [consoleApi, checkoutApi, managementApi]) client.use(session);

/** An error answer of any area (management's RFC 7807 body, checkout's ServiceError) as one readable sentence. */
export function errorText(error: unknown, response?: Response): string {
  const body = (error ?? {}) as { detail?: string; message?: string; title?: string; errorCode?: string };
  const what = body.detail ?? body.message ?? body.title ?? (typeof error === 'string' && error ? error : 'The request failed.');
  const status = response ? `${response.status}${response.statusText ? ` ${response.statusText}` : ''}` : '';
  const code = body.errorCode ? ` (error code ${body.errorCode})` : '';
  return status ? `${status}: ${what}${code}` : `${what}${code}`;
}

/** A network failure (the server is down) as the same kind of sentence. */
export function failureText(cause: unknown): string {
  return `The sandbox did not answer: ${cause instanceof Error ? cause.message : String(cause)}`;
}
