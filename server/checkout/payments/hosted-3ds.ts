import { type Response, Router } from 'express';
import type { Store } from '../../store/types.js';
import { pendingRedirect } from './payments.domain.js';
import type { RedirectOutcome, RedirectSigner } from '../../kernel/crypto/redirect-signer.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

/**
 * The test issuer's 3D Secure page that a RedirectShopper action points at. The shopper (or a
 * test) chooses an outcome and is sent back to the merchant's returnUrl with a signed
 * redirectResult, which the payment details operation then turns into the final result.
 */
export function hosted3ds(store: Store, signer: RedirectSigner): Router {
  const router = Router();
  /** The payment waiting for authentication, or a 404 page (then undefined). */
  const waiting = async (psp: string, res: Response) => {
    const payment = await store.transaction((tx) => pendingRedirect(tx, psp));
    if (!payment) res.status(404).type('html').send('<!doctype html><title>Not found</title><p>No payment waits for authentication here.</p>');
    return payment;
  };
  router.get('/hosted/3ds/:psp', async (req, res) => {
    const payment = await waiting(req.params.psp, res);
    if (!payment) return;
    const psp = escapeHtml(payment.pspReference);
    const amount = `${escapeHtml(payment.currency)} ${(payment.originalValue / 100).toFixed(2)}`;
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure test</title></head>
<body><h1>3D Secure test issuer</h1><p>Payment ${psp} of ${amount} with card ending ${escapeHtml(payment.cardLastFour)}.</p>
<p><a id="authorise" href="/hosted/3ds/${psp}/complete?outcome=authorised">Authenticate</a>
 · <a id="refuse" href="/hosted/3ds/${psp}/complete?outcome=refused">Fail authentication</a></p></body></html>`);
  });
  router.get('/hosted/3ds/:psp/complete', async (req, res) => {
    const outcome: RedirectOutcome = req.query.outcome === 'refused' ? 'refused' : 'authorised';
    const payment = await waiting(req.params.psp, res);
    if (!payment) return;
    res.redirect(302, returnUrlWith(payment.returnUrl, signer.sign(payment.pspReference, outcome)));
  });
  return router;
}
