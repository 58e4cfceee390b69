import { type Response, Router } from 'express';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import type { Payment } from '../../store/types.js';
import type { Store } from '../../store/tx.js';
import { escapeHtml, formatMoney, formField as field, hostedForm as form, messagePage, sendHostedPage } from '../hosted-assets/hosted-page.js';
import { type RedirectAnswer, returnUrlWith, signRedirectResult } from './redirect-result.js';
import { idealIssuerOf } from './methods/ideal.js';

/**
 * The sandbox's stand-ins for what a shopper meets outside the merchant's page: the iDEAL bank,
 * Klarna's and PayPal's approval pages, the Bancontact app that scans a QR code, and the bank
 * where a voucher is paid (the issuer's 3D Secure 2 pages are three-ds2-pages.ts). A redirect
 * page sends the shopper back with a signed redirectResult; a page that stays records the
 * shopper's answer on the payment, in a transaction; the payment's flow applies it when the
 * client asks (/payments/details), so a page never decides a result by itself nor writes an event.
 */

/** Reads a payment and, when `accepts` holds, writes what `change` makes of it; undefined when it does not wait for this page. */
async function answer(store: Store, psp: string, accepts: (p: Payment) => boolean, change: (p: Payment) => Payment): Promise<Payment | undefined> {
  return store.transaction(async (tx) => {
    const payment = await tx.payments.getForUpdate(psp);
    if (!payment || !accepts(payment)) return undefined;
    const changed = change(payment);
    await tx.payments.update(changed, payment);
    return changed;
  });
}

async function waiting(store: Store, psp: string, accepts: (p: Payment) => boolean): Promise<{ payment: Payment; merchantName: string } | undefined> {
  return store.read(async (tx) => {
    const payment = await tx.payments.get(psp);
    if (!payment || !accepts(payment)) return undefined;
    return { payment, merchantName: (await tx.merchants.get(payment.merchantAccount))?.name ?? payment.merchantAccount };
  });
}

const notWaiting = (res: Response) =>
  messagePage(res, 404, 'Nothing to answer', 'No payment waits for this page: it was already answered, it expired, or the link is wrong.');

interface Choice {
  outcome: RedirectAnswer;
  id: string;
  label: string;
  secondary?: boolean;
}

interface RedirectMethodPage {
  /** The path segment: /hosted/<path>/<pspReference>. */
  path: string;
  /** The page's title. */
  title: string;
  methods: readonly string[];
  /** The page's content above the choices (trusted HTML). */
  body(payment: Payment, merchantName: string): string;
  choices(payment: Payment): Choice[];
}

const amountRow = (payment: Payment) => `<dt>Amount</dt><dd id="amount">${formatMoney({ currency: payment.currency, value: payment.originalValue })}</dd>`;

const IDEAL_PAGE: RedirectMethodPage = {
  path: 'ideal',
  title: 'Pay with iDEAL',
  methods: ['ideal'],
  body: (payment, merchantName) => {
    const issuer = idealIssuerOf(payment);
    return `<header>
<p class="merchant">Sandbox Bank · iDEAL</p>
<h1>Pay with iDEAL</h1>
<p class="description">The sandbox's bank: choose what the bank answers.</p>
</header>
<dl>
<dt>To</dt><dd id="merchant">${escapeHtml(merchantName)}</dd>
${amountRow(payment)}
<dt>Reference</dt><dd>${escapeHtml(payment.pspReference)}</dd>
${issuer ? `<dt>Bank</dt><dd id="issuer">${escapeHtml(issuer.name)}</dd>` : ''}
</dl>`;
  },
  choices: (payment) => {
    // The test banks that answer for the shopper (Test Issuer Refused, Pending, Cancelled) offer that answer only.
    const decided = idealIssuerOf(payment)?.answers;
    const all: Choice[] = [
      { outcome: 'authorised', id: 'authorise', label: 'Pay' },
      { outcome: 'pending', id: 'pending', label: 'Leave pending', secondary: true },
      { outcome: 'refused', id: 'refuse', label: 'Refuse', secondary: true },
      { outcome: 'cancelled', id: 'cancel', label: 'Cancel', secondary: true },
    ];
    return decided ? all.filter((c) => c.outcome === decided).map((c) => ({ ...c, secondary: false })) : all;
  },
};

function itemRows(payment: Payment): string {
  const items = (payment.methodState.lineItems ?? []) as Array<{ description?: string; quantity?: number; amountIncludingTax?: number }>;
  return items
    .map(
      (item) =>
        `<dt>${escapeHtml(String(item.quantity ?? 1))} × ${escapeHtml(item.description ?? 'Item')}</dt><dd>${formatMoney({ currency: payment.currency, value: (item.amountIncludingTax ?? 0) * (item.quantity ?? 1) })}</dd>`,
    )
    .join('\n');
}

const KLARNA_PAGE: RedirectMethodPage = {
  path: 'klarna',
  title: 'Confirm with Klarna',
  methods: ['klarna', 'klarnapayments', 'klarnapayments_account', 'klarnapayments_b2b', 'klarna_paynow', 'klarna_account', 'klarna_b2b'],
  body: (payment, merchantName) => `<header>
<p class="merchant">Sandbox Klarna · ${escapeHtml(payment.paymentMethodType)}</p>
<h1>${payment.methodState.declined === true ? 'Klarna cannot approve this purchase' : 'Confirm with Klarna'}</h1>
<p class="description" id="decision">${payment.methodState.declined === true ? 'This shopper is declined (sandbox: an email address with +denied@).' : `Your purchase at ${escapeHtml(merchantName)}.`}</p>
</header>
<dl>
${itemRows(payment)}
${amountRow(payment)}
</dl>`,
  choices: (payment) =>
    payment.methodState.declined === true
      ? [{ outcome: 'refused', id: 'back', label: 'Back to the shop' }]
      : [
          { outcome: 'authorised', id: 'authorise', label: 'Buy' },
          { outcome: 'pending', id: 'pending', label: 'Review later', secondary: true },
          { outcome: 'refused', id: 'refuse', label: 'Decline', secondary: true },
          { outcome: 'cancelled', id: 'cancel', label: 'Cancel', secondary: true },
        ],
};

/** PayPal's approval page (`subtype: redirect`): the shopper logs in at PayPal and approves, or cancels. */
const PAYPAL_PAGE: RedirectMethodPage = {
  path: 'paypal',
  title: 'Pay with PayPal',
  methods: ['paypal'],
  body: (payment, merchantName) => `<header>
<p class="merchant">Sandbox PayPal</p>
<h1>Pay with PayPal</h1>
<p class="description">The sandbox's PayPal: choose what PayPal answers.</p>
</header>
<dl>
<dt>To</dt><dd id="merchant">${escapeHtml(merchantName)}</dd>
${amountRow(payment)}
</dl>`,
  choices: () => [
    { outcome: 'authorised', id: 'authorise', label: 'Agree and pay' },
    { outcome: 'refused', id: 'refuse', label: 'Decline', secondary: true },
    { outcome: 'cancelled', id: 'cancel', label: 'Cancel and return', secondary: true },
  ],
};

/**
 * A redirect method's hosted page: the payment and the answers the sandbox offers; an answer
 * sends the shopper to the merchant's returnUrl with a signed redirectResult, which
 * /payments/details then applies (once).
 */
function redirectMethodPages(store: Store, signer: RedirectSigner, page: RedirectMethodPage): Router {
  const router = Router();
  const accepts = (p: Payment) => page.methods.includes(p.paymentMethodType) && p.resultCode === 'RedirectShopper' && !p.detailsSubmitted;
  router.get(`/hosted/${page.path}/:psp`, async (req, res) => {
    const found = await waiting(store, String(req.params.psp), accepts);
    if (!found) return notWaiting(res);
    const base = `/hosted/${page.path}/${encodeURIComponent(found.payment.pspReference)}/answer`;
    const buttons = page
      .choices(found.payment)
      .map((c) => `<a class="button${c.secondary ? ' secondary' : ''}" id="${c.id}" href="${base}?outcome=${c.outcome}">${escapeHtml(c.label)}</a>`)
      .join('\n');
    sendHostedPage(res, 200, {
      title: page.title,
      body: `${page.body(found.payment, found.merchantName)}
<div class="actions">
${buttons}
</div>
<p class="fine">After your answer you return to the merchant's page.</p>`,
    });
  });
  router.get(`/hosted/${page.path}/:psp/answer`, async (req, res) => {
    const found = await waiting(store, String(req.params.psp), accepts);
    if (!found) return notWaiting(res);
    const offered = page.choices(found.payment).map((c) => c.outcome);
    const outcome = offered.find((o) => o === req.query.outcome) ?? offered[0]!;
    res.redirect(302, returnUrlWith(found.payment.returnUrl, signRedirectResult(signer, found.payment.pspReference, outcome)));
  });
  return router;
}

/**
 * A page where the shopper acts and stays (the Bancontact app, a voucher's payment): the answer
 * is recorded on the payment and falls due at once (settleAt set to its creation time, never
 * after any company clock), so the next /payments/details poll or dispatcher round applies it.
 */
const dueNow = (p: Payment, state: Record<string, unknown>): Payment => ({ ...p, settleAt: p.createdAt, methodState: { ...p.methodState, ...state } });

const BCMC_MOBILE = ['bcmc_mobile', 'bcmc_mobile_QR', 'bcmc_mobile_app'];
const scannable = (p: Payment) => BCMC_MOBILE.includes(p.paymentMethodType) && p.resultCode === 'Pending' && p.methodState.answer === undefined;

function bcmcMobilePages(store: Store): Router {
  const router = Router();
  router.get('/hosted/bcmc-mobile/:psp', async (req, res) => {
    const found = await waiting(store, String(req.params.psp), scannable);
    if (!found) return notWaiting(res);
    sendHostedPage(res, 200, {
      title: 'Payconiq by Bancontact',
      body: `<header>
<p class="merchant">Sandbox Bancontact app</p>
<h1>Pay ${formatMoney({ currency: found.payment.currency, value: found.payment.originalValue })}</h1>
<p class="description">To ${escapeHtml(found.merchantName)}. This page stands for the Bancontact app that scanned the QR code.</p>
</header>
<form method="post" action="/hosted/bcmc-mobile/${encodeURIComponent(found.payment.pspReference)}/answer">
<div class="actions">
<button class="button" id="authorise" type="submit" name="outcome" value="authorised">Pay</button>
<button class="button secondary" id="refuse" type="submit" name="outcome" value="refused">Decline</button>
</div>
</form>`,
    });
  });
  router.post('/hosted/bcmc-mobile/:psp/answer', form, async (req, res) => {
    const outcome = field(req, 'outcome') === 'refused' ? 'refused' : 'authorised';
    const answered = await answer(store, String(req.params.psp), scannable, (p) => dueNow(p, { answer: outcome }));
    if (!answered) return notWaiting(res);
    messagePage(
      res,
      200,
      outcome === 'authorised' ? 'Paid' : 'Declined',
      'You can return to the shop: it shows the result.',
      ` id="status" data-outcome="${outcome}"`,
    );
  });
  return router;
}

const unpaidVoucher = (p: Payment) => p.resultCode === 'PresentToShopper' && p.methodState.paid !== true;

function voucherPages(store: Store): Router {
  const router = Router();
  router.get('/hosted/vouchers/:psp', async (req, res) => {
    const found = await waiting(store, String(req.params.psp), unpaidVoucher);
    if (!found) return notWaiting(res);
    const { payment } = found;
    const voucher = payment.methodState.voucher as { reference: string; entity?: string; expiresAt: string };
    sendHostedPage(res, 200, {
      title: 'Voucher',
      body: `<header>
<p class="merchant" id="merchant">${escapeHtml(found.merchantName)}</p>
<h1>${payment.paymentMethodType === 'multibanco' ? 'Multibanco reference' : 'Boleto bancário'}</h1>
<p class="description">Pay at a bank, an ATM or in online banking before it expires.</p>
</header>
<dl>
${voucher.entity ? `<dt>Entity</dt><dd id="entity">${escapeHtml(voucher.entity)}</dd>` : ''}
<dt>Reference</dt><dd id="reference">${escapeHtml(voucher.reference)}</dd>
${amountRow(payment)}
<dt>Expires</dt><dd id="expires">${escapeHtml(voucher.expiresAt)}</dd>
</dl>
<form method="post" action="/hosted/vouchers/${encodeURIComponent(payment.pspReference)}/pay">
<div class="actions"><button class="button" id="pay" type="submit">Pay this voucher (sandbox)</button></div>
</form>
<p class="fine">Sandbox only: the button stands for the shopper paying at the bank.</p>`,
    });
  });
  router.post('/hosted/vouchers/:psp/pay', async (req, res) => {
    const paid = await answer(store, String(req.params.psp), unpaidVoucher, (p) => dueNow(p, { paid: true }));
    if (!paid) return notWaiting(res);
    messagePage(res, 200, 'Voucher paid', 'The merchant is told shortly.', ' id="status" data-outcome="paid"');
  });
  return router;
}

/** Every page of the payment methods beyond 3D Secure's redirect (hosted-3ds.ts uses it). */
export function hostedMethodPages(store: Store, signer: RedirectSigner): Router {
  const router = Router();
  router.use(redirectMethodPages(store, signer, IDEAL_PAGE));
  router.use(redirectMethodPages(store, signer, KLARNA_PAGE));
  router.use(redirectMethodPages(store, signer, PAYPAL_PAGE));
  router.use(bcmcMobilePages(store));
  router.use(voucherPages(store));
  return router;
}
