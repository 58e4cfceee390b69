import { timingSafeEqual } from 'node:crypto';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import { decodeJson } from './three-ds2.js';

/**
 * The `redirectResult` a hosted page (3D Secure, iDEAL issuer, Klarna) hands the shopper back
 * to the merchant with: the payment and the shopper's answer, signed with the server secret so
 * that only this server's pages can make one. The same format as RedirectSigner.sign, with the
 * answers the redirect methods have (authorised, refused, cancelled, pending).
 */
export type RedirectAnswer = 'authorised' | 'refused' | 'cancelled' | 'pending';

const ANSWERS: readonly string[] = ['authorised', 'refused', 'cancelled', 'pending'];

export function signRedirectResult(signer: RedirectSigner, pspReference: string, outcome: RedirectAnswer): string {
  const payload = Buffer.from(JSON.stringify({ psp: pspReference, outcome })).toString('base64url');
  return `${payload}.${signer.mac(payload)}`;
}

/** The payment and answer of a redirect result, or undefined when this server did not make it. */
export function readRedirectResult(signer: RedirectSigner, redirectResult: string): { pspReference: string; outcome: RedirectAnswer } | undefined {
  const parts = redirectResult.split('.');
  if (parts.length !== 2 || !parts[0] || !signedBy(signer, parts[0], parts[1] ?? '')) return undefined;
  const parsed = decodeJson(parts[0]);
  const psp = parsed?.psp;
  const outcome = parsed?.outcome;
  if (typeof psp !== 'string' || typeof outcome !== 'string' || !ANSWERS.includes(outcome)) return undefined;
  return { pspReference: psp, outcome: outcome as RedirectAnswer };
}

/** Whether `mac` is this server's signature of `payload` (compared in constant time). */
function signedBy(signer: RedirectSigner, payload: string, mac: string): boolean {
  const expected = Buffer.from(signer.mac(payload));
  return expected.length === Buffer.byteLength(mac) && timingSafeEqual(expected, Buffer.from(mac));
}

/** Adds `redirectResult` to the merchant's return URL, keeping its own query. */
export function returnUrlWith(returnUrl: string, redirectResult: string): string {
  try {
    const url = new URL(returnUrl);
    url.searchParams.set('redirectResult', redirectResult);
    return url.toString();
  } catch {
    return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}redirectResult=${encodeURIComponent(redirectResult)}`;
  }
}
