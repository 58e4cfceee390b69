import { expect } from '@jest/globals';
import type { TestServer } from './start-server.js';

/**
 * What the payment-method tests share: following a hosted page as a shopper's browser would,
 * moving the sandbox clock, and reading a payment as the store holds it.
 */

/** Opens a redirect action's page, picks an answer and returns the redirectResult the shopper brings back. */
export async function answerRedirect(action: unknown, outcome: 'authorised' | 'refused' | 'cancelled' | 'pending'): Promise<string> {
  const { url } = action as { url: string };
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(`outcome=${outcome}`);
  const answered = await fetch(`${url}/answer?outcome=${outcome}`, { redirect: 'manual' });
  expect(answered.status).toBe(302);
  return new URL(answered.headers.get('location')!).searchParams.get('redirectResult')!;
}

/** Moves the demo company's sandbox clock and lets the dispatcher do what fell due. */
export async function advanceClock(server: TestServer, seconds: number): Promise<void> {
  const { response } = await server.checkout.POST('/sandbox/clock/advance', { body: { seconds } });
  expect(response.status).toBe(200);
  await server.dispatcher.drain();
}

/** A payment as the store holds it now. */
export function storedPayment(server: TestServer, pspReference: string) {
  return server.store.read((tx) => tx.payments.get(pspReference));
}

/** The events recorded for a payment (its own and its modifications'), as codes with their outcome. */
export async function recordedEvents(server: TestServer, pspReference: string, merchantAccount = 'DemoMerchantECOM'): Promise<string[]> {
  const events = await server.store.read((tx) => tx.outbox.listEvents(merchantAccount, 0, 100_000));
  return events.filter((e) => e.pspReference === pspReference || e.originalReference === pspReference).map((e) => `${e.eventCode}:${e.success}`);
}
