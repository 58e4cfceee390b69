import express, { Router, type Response } from 'express';
import type { Clock } from '../../kernel/clock.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_LINK_EXPIRED, ERR_LINK_NOT_FOUND, ERR_LINK_NOT_PAYABLE } from '../../kernel/errors.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Payment, PaymentLink } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import { currentLink, payableLink, recordLinkPayment, shopperActor } from './payment-links.domain.js';
import { makePayment, submitPaymentDetails } from '../payments/payments.domain.js';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import { escapeHtml, formatMoney, messagePage, safeHttpUrl, sendHostedPage } from '../hosted-assets/hosted-page.js';
import type { Money } from '../money.js';

/** A link with what its pages show about it: the merchant's name. */
interface LinkView {
  link: PaymentLink;
  merchantName: string;
}

/** The payment method types that are cards: the page takes a link's cards when it allows any of them. */
const CARD_TYPES = new Set(['scheme', 'visa', 'mc', 'amex', 'maestro', 'jcb', 'cup', 'diners', 'discover', 'cartebancaire']);

const stringList = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

/**
 * Whether the shopper may pay this link by card, the only method this page (and the sandbox's
 * links) can pay: a link that allows only other methods, or blocks cards, cannot be paid here.
 */
function cardAllowed(link: PaymentLink): boolean {
  const allowed = stringList(link.fields.allowedPaymentMethods);
  const blocked = stringList(link.fields.blockedPaymentMethods) ?? [];
  if (blocked.includes('scheme')) return false;
  return !allowed || allowed.length === 0 || allowed.some((type) => CARD_TYPES.has(type));
}

const ERR_CARD_NOT_ALLOWED = { status: 422, code: '000', message: 'This payment link does not allow card payments', errorType: 'validation' } as const;

const amountOf = (link: PaymentLink) => link.fields.amount as Money;
const returnUrlOf = (link: PaymentLink) => safeHttpUrl(link.fields.returnUrl);

/** Who is paid how much for what: the top of every page of a link. */
function linkHeader({ link, merchantName }: LinkView, heading: string): string {
  const description = typeof link.fields.description === 'string' ? link.fields.description : '';
  return `<header>
<p class="merchant" id="merchant">${escapeHtml(merchantName)}</p>
<h1>${escapeHtml(heading)} <span id="amount">${formatMoney(amountOf(link))}</span></h1>
${description ? `<p class="description">${escapeHtml(description)}</p>` : ''}
<p class="fine">Reference ${escapeHtml(link.reference)}</p>
</header>`;
}

/** The Continue button to the link's returnUrl (when it has one). */
function continueButton(link: PaymentLink, primary: boolean): string {
  const url = returnUrlOf(link);
  return url ? `<a class="button${primary ? '' : ' secondary'}" id="continue" href="${escapeHtml(url)}">Continue</a>` : '';
}

const field = (name: string, label: string, attributes: string, hint = '') =>
  `<div class="field"><label for="${name}">${label}</label>
<input type="text" id="${name}" name="${name}" ${attributes} aria-describedby="${name}-error"${hint}>
<p class="field-error" id="${name}-error" aria-live="polite"></p></div>`;

/** The card form: labelled fields, checked in the browser by /hosted/assets/pay.js and again by the server. */
function cardForm(view: LinkView): string {
  const { link } = view;
  const consent =
    link.fields.storePaymentMethodMode === 'askForConsent'
      ? '<div class="field checkbox"><label><input type="checkbox" id="storePaymentMethod" name="storePaymentMethod" value="true"> Save my card for next time</label></div>'
      : '';
  return `<form id="pay-form" method="post" action="/payByLink/${encodeURIComponent(link.id)}">
<fieldset>
<legend>Pay with</legend>
<ul class="methods" aria-label="Payment methods"><li aria-current="true">Card</li></ul>
${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" required placeholder="1234 5678 9012 3456" maxlength="23"')}
<div class="row">
${field('expiryMonth', 'Expiry month', 'inputmode="numeric" autocomplete="cc-exp-month" required placeholder="MM" maxlength="2"')}
${field('expiryYear', 'Expiry year', 'inputmode="numeric" autocomplete="cc-exp-year" required placeholder="YYYY" maxlength="4"')}
</div>
${field('cvc', 'Security code (CVC)', 'inputmode="numeric" autocomplete="cc-csc" required placeholder="3 or 4 digits" maxlength="4"')}
${field('holderName', 'Name on card', 'autocomplete="cc-name" required placeholder="As printed on the card" maxlength="100"')}
${consent}
</fieldset>
<button type="submit" id="pay">Pay ${formatMoney(amountOf(link))}</button>
</form>
<p class="fine">Sandbox: use a test card such as 4111 1111 1111 1111, any future expiry and CVC 737.</p>`;
}

/** What a link's page says when it cannot be paid: expired, paid, or being paid. */
function closedLinkPage(res: Response, view: LinkView): void {
  const { link } = view;
  const paid = link.status === 'completed' || link.status === 'paid';
  const text = paid ? 'This payment link has been paid.' : 'This payment link has expired.';
  sendHostedPage(res, 410, {
    title: paid ? 'Already paid' : 'Link expired',
    body: `${linkHeader(view, paid ? 'Paid' : 'Pay')}
<p class="state ${paid ? 'ok' : 'bad'}" id="status" data-status="${escapeHtml(link.status)}">${text}</p>
${paid ? '' : '<p class="note">Ask the merchant for a new link.</p>'}
<div class="actions">${paid ? continueButton(link, true) : ''}</div>`,
  });
}

/** The page after a payment: a clear state, the result code and reference, then Continue (or Try again). */
function resultPage(res: Response, view: LinkView, payment: Pick<Payment, 'resultCode' | 'pspReference' | 'refusalReason'>): void {
  const { link } = view;
  const states: Record<string, [string, string]> = {
    Authorised: ['Payment successful', 'ok'],
    Refused: ['Payment refused', 'bad'],
    Error: ['Payment failed', 'bad'],
    Cancelled: ['Payment cancelled', 'bad'],
  };
  const [state, tone] = states[payment.resultCode] ?? ['Payment received', 'ok'];
  const failed = tone === 'bad';
  const reason = failed && payment.refusalReason ? `<p class="note" id="reason">${escapeHtml(payment.refusalReason)}. No money was taken.</p>` : '';
  const retry = failed ? `<a class="button" id="retry" href="/payByLink/${encodeURIComponent(link.id)}">Try again</a>` : '';
  sendHostedPage(res, 200, {
    title: state,
    body: `${linkHeader(view, failed ? 'Pay' : 'Paid')}
<p class="state ${tone}" id="state" role="status">${state}</p>
${reason}
<dl><dt>Result</dt><dd id="result">${escapeHtml(payment.resultCode)}</dd><dt>Payment reference</dt><dd id="psp">${escapeHtml(payment.pspReference)}</dd></dl>
<div class="actions">${retry}${continueButton(link, !failed)}</div>`,
  });
}

/** Friendly titles of the errors a shopper can meet on a link's page. */
const ERROR_TITLES = new Map([
  [ERR_LINK_EXPIRED.code, 'This payment link has expired'],
  [ERR_LINK_NOT_PAYABLE.code, 'This payment link has already been paid'],
  [ERR_LINK_NOT_FOUND.code, 'Payment link not found'],
]);

/** The page when the payment could not be made: the API error's code and message (anything else is a 500). */
function refusalPage(res: Response, error: unknown): void {
  if (!(error instanceof ApiError)) throw error;
  messagePage(res, error.status, ERROR_TITLES.get(error.code) ?? 'Payment not possible', error.message, ` id="error" data-code="${escapeHtml(error.code)}"`);
}

/** The text fields of a posted form (urlencoded): anything else is ignored. */
function formFields(body: unknown): Record<string, string | undefined> {
  if (body === null || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The company a link belongs to, whose sandbox clock decides its expiry ('' for an unknown link: real time). */
async function companyOfLink(tx: Tx, id: string): Promise<string> {
  return (await tx.links.get(id))?.companyId ?? '';
}

async function viewOf(tx: Tx, link: PaymentLink): Promise<LinkView> {
  return { link, merchantName: (await tx.merchants.get(link.merchantAccount))?.name ?? link.merchantAccount };
}

/**
 * The hosted payment page a payment link's `url` points at. A shopper pays with a test card;
 * an authorised payment completes a link that is not reusable. 3D Secure cards go through the
 * hosted issuer page and come back to /payByLink/{id}/return. After the payment, Continue leads
 * to the link's returnUrl.
 */
export function payByLinkPage(deps: { store: Store; clock: Clock; vault: CardVault; redirects: RedirectSigner; publicBaseUrl: string }): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/payByLink/:id', async (req, res) => {
    const view = await deps.store.transaction(async (tx) => {
      const link = await currentLink(tx, deps.clock.now(await companyOfLink(tx, req.params.id)), req.params.id);
      return link && viewOf(tx, link);
    });
    if (!view)
      return messagePage(res, 404, 'Payment link not found', 'This payment link does not exist. Check the address, or ask the merchant for a new link.');
    if (view.link.status !== 'active' && view.link.status !== 'paymentPending') return closedLinkPage(res, view);
    const pending =
      view.link.status === 'paymentPending' ? '<p class="note" id="pending">An earlier payment of this link was not finished. You can pay again.</p>' : '';
    const body = cardAllowed(view.link)
      ? cardForm(view)
      : '<p class="note" id="no-methods">This link allows only payment methods that this page cannot take. Ask the merchant for another link.</p>';
    sendHostedPage(res, 200, { title: `Pay ${view.merchantName}`, body: `${linkHeader(view, 'Pay')}\n${pending}\n${body}`, withScript: true });
  });

  router.post('/payByLink/:id', form, async (req, res) => {
    const fields = formFields(req.body);
    const base = baseUrlOf(req, deps.publicBaseUrl);
    try {
      const outcome = await deps.store.transaction(async (tx) => {
        const now = deps.clock.now(await companyOfLink(tx, req.params.id));
        const link = await payableLink(tx, now, req.params.id);
        if (!cardAllowed(link)) throw new ApiError(ERR_CARD_NOT_ALLOWED);
        const f = link.fields as {
          amount: Money;
          shopperReference?: string;
          shopperEmail?: string;
          storePaymentMethodMode?: string;
          recurringProcessingModel?: string;
          captureDelayHours?: number;
          manualCapture?: boolean;
        };
        const store = f.storePaymentMethodMode === 'enabled' || (f.storePaymentMethodMode === 'askForConsent' && fields.storePaymentMethod === 'true');
        const card = Object.fromEntries(['number', 'expiryMonth', 'expiryYear', 'cvc', 'holderName'].filter((k) => fields[k]).map((k) => [k, fields[k]!]));
        if (card.number) card.number = card.number.replace(/[\s-]/g, '');
        const result = await makePayment({ tx, now, vault: deps.vault }, shopperActor(link.companyId, link.merchantAccount), {
          merchantAccount: link.merchantAccount,
          reference: link.reference,
          returnUrl: `${base}/payByLink/${link.id}/return`,
          amount: f.amount,
          paymentMethod: { type: 'scheme', ...card },
          paymentLinkId: link.id,
          ...(f.shopperReference && { shopperReference: f.shopperReference }),
          ...(f.shopperEmail && { shopperEmail: f.shopperEmail }),
          ...(f.captureDelayHours !== undefined && { captureDelayHours: f.captureDelayHours }),
          ...(f.manualCapture && { additionalData: { manualCapture: 'true' } }),
          ...(store && { storePaymentMethod: true }),
          ...(f.recurringProcessingModel && { recurringProcessingModel: f.recurringProcessingModel as 'CardOnFile' }),
        });
        await recordLinkPayment(tx, now, link, result.payment.resultCode);
        return { payment: result.payment, view: await viewOf(tx, link) };
      });
      if (outcome.payment.resultCode === 'RedirectShopper') return res.redirect(303, `${base}/hosted/3ds/${outcome.payment.pspReference}`);
      resultPage(res, outcome.view, outcome.payment);
    } catch (error) {
      refusalPage(res, error);
    }
  });

  router.get('/payByLink/:id/return', async (req, res) => {
    const redirectResult = typeof req.query.redirectResult === 'string' ? req.query.redirectResult : '';
    try {
      const outcome = await deps.store.transaction(async (tx) => {
        const link = await tx.links.getForUpdate(req.params.id);
        if (!link) throw new ApiError({ status: 404, code: '000', message: 'Not Found', errorType: 'validation' });
        const now = deps.clock.now(link.companyId);
        const result = await submitPaymentDetails({ tx, now, vault: deps.vault }, shopperActor(link.companyId, link.merchantAccount), deps.redirects, {
          details: { redirectResult },
        });
        await recordLinkPayment(tx, now, link, result.payment.resultCode);
        return { payment: result.payment, view: await viewOf(tx, link) };
      });
      resultPage(res, outcome.view, outcome.payment);
    } catch (error) {
      refusalPage(res, error);
    }
  });
  return router;
}
