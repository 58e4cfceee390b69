import { type Response, Router } from 'express';
import type { Payment } from '../../store/types.js';
import type { Store } from '../../store/tx.js';
import { pendingRedirect } from './payments.domain.js';
import type { RedirectOutcome, RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import { escapeHtml, formatMoney, hostedAssets, messagePage, sendHostedPage } from '../hosted-assets/hosted-page.js';
import { hostedMethodPages } from './hosted-methods.js';
import { threeDS2Pages } from './three-ds2-pages.js';
import { returnUrlWith } from './redirect-result.js';

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mc: 'Mastercard',
  amex: 'American Express',
  maestro: 'Maestro',
  jcb: 'JCB',
  cup: 'UnionPay',
  diners: 'Diners Club',
  bcmc: 'Bancontact',
};

/** The challenge page: who is paid, how much, with which card, and the two answers a test issuer offers. */
function challengePage(res: Response, payment: Payment, merchantName: string): void {
  const psp = escapeHtml(payment.pspReference);
  const base = `/hosted/3ds/${encodeURIComponent(payment.pspReference)}/complete`;
  sendHostedPage(res, 200, {
    title: 'Verify your payment',
    body: `<header>
<p class="merchant">Test issuer · 3D Secure</p>
<h1>Verify your payment</h1>
<p class="description">Your bank asks you to confirm this payment. This is the sandbox's test issuer: choose the outcome.</p>
</header>
<dl>
<dt>Merchant</dt><dd id="merchant">${escapeHtml(merchantName)}</dd>
<dt>Amount</dt><dd id="amount">${formatMoney({ currency: payment.currency, value: payment.originalValue })}</dd>
<dt>Card</dt><dd>${escapeHtml(BRANDS[payment.cardBrand] ?? payment.cardBrand)} ending ${escapeHtml(payment.cardLastFour)}</dd>
<dt>Reference</dt><dd>${psp}</dd>
</dl>
<div class="actions">
<a class="button" id="authorise" href="${base}?outcome=authorised">Authenticate</a>
<a class="button secondary" id="refuse" href="${base}?outcome=refused">Fail authentication</a>
</div>
<p class="fine">After your answer you return to the merchant's page.</p>`,
  });
}

/**
 * The test issuer's 3D Secure page that a RedirectShopper action points at. The shopper (or a
 * test) chooses an outcome and is sent back to the merchant's returnUrl with a signed
 * redirectResult, which the payment details operation then turns into the final result.
 * It also serves the hosted pages' stylesheet and scripts (/hosted/assets/), the issuer's pages
 * of native 3D Secure 2 (three-ds2-pages.ts) and the pages of the other payment methods
 * (hosted-methods.ts).
 */
export function hosted3ds(store: Store, signer: RedirectSigner): Router {
  const router = Router();
  router.use(hostedAssets());
  router.use(threeDS2Pages(store));
  router.use(hostedMethodPages(store, signer));
  /** The payment waiting for authentication and its merchant's name, or a 404 page (then undefined). */
  const waiting = async (psp: string, res: Response) => {
    const found = await store.transaction(async (tx) => {
      const payment = await pendingRedirect(tx, psp);
      return payment && { payment, merchantName: (await tx.merchants.get(payment.merchantAccount))?.name ?? payment.merchantAccount };
    });
    if (!found) messagePage(res, 404, 'Nothing to verify', 'No payment waits for authentication here: it was already answered, or the link is wrong.');
    return found;
  };
  router.get('/hosted/3ds/:psp', async (req, res) => {
    const found = await waiting(req.params.psp, res);
    if (found) challengePage(res, found.payment, found.merchantName);
  });
  router.get('/hosted/3ds/:psp/complete', async (req, res) => {
    const outcome: RedirectOutcome = req.query.outcome === 'refused' ? 'refused' : 'authorised';
    const found = await waiting(req.params.psp, res);
    if (!found) return;
    res.redirect(302, returnUrlWith(found.payment.returnUrl, signer.sign(found.payment.pspReference, outcome)));
  });
  return router;
}
