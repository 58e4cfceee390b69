import express, { Router, type Response } from 'express';
import type { Clock } from '../../kernel/clock.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_LINK_EXPIRED, ERR_LINK_NOT_FOUND, ERR_LINK_NOT_PAYABLE } from '../../kernel/errors.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import { requestIdOf } from '../../kernel/http/request-context.js';
import type { Payment, PaymentLink } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import { currentLink, payableLink, recordLinkPayment, shopperActor } from './payment-links.domain.js';
import type { PaymentInput, PaymentMethodInput } from '../payments/authorisation.js';
import { makePayment, submitPaymentDetails } from '../payments/payments.domain.js';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import { escapeHtml, formatMoney, messagePage, safeHttpUrl, sendHostedPage } from '../hosted-assets/hosted-page.js';
import type { Money } from '../money.js';
import { offeredMethods, type PaymentMethodsQuery } from '../payment-methods/payment-methods.domain.js';
import { assertItemsPrice } from '../payments/line-items.js';
import { idealFlow } from '../payments/methods/ideal.js';
import { flowOfPayment } from '../payments/methods/index.js';
import { klarnaFlow } from '../payments/methods/klarna.js';

/** A link with what its pages show about it: the merchant's name. */
interface LinkView {
  link: PaymentLink;
  merchantName: string;
}

const stringList = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

/** A way to pay that the page offers: the type it sends, the name shoppers read, a card's brands. */
interface PageMethod {
  type: string;
  name: string;
  brands: string[];
}

/**
 * The redirect methods the page takes besides cards: the shopper approves at the method's hosted
 * page (hosted-methods.ts) and comes back to /payByLink/{id}/return. Methods that need a form or
 * an app of their own (SEPA's IBAN, PayPal's and the wallets' SDKs, gift cards, Bancontact's QR
 * code, vouchers) are not offered here.
 */
const REDIRECT_TYPES = new Set([...idealFlow.types, ...klarnaFlow.types]);

/** Whether the link carries what a method's payment needs: Klarna bills line items that add up to the amount. */
function linkFitsMethod(link: PaymentLink, type: string): boolean {
  if (!klarnaFlow.types.includes(type)) return true;
  try {
    assertItemsPrice(link.fields.lineItems as Array<Record<string, unknown>> | undefined, amountOf(link).value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The methods a link can be paid with here: what /paymentMethods offers the link's merchant
 * account for its amount, country and store on the web (the link's allowed and blocked methods
 * applied), kept to cards and the redirect methods.
 */
async function linkMethods(tx: Tx, { link, merchantName }: LinkView): Promise<PageMethod[]> {
  const f = link.fields;
  const allowed = stringList(f.allowedPaymentMethods);
  const blocked = stringList(f.blockedPaymentMethods);
  const query: PaymentMethodsQuery = {
    merchantAccount: link.merchantAccount,
    amount: amountOf(link),
    channel: 'Web',
    ...(typeof f.countryCode === 'string' && { countryCode: f.countryCode }),
    ...(typeof f.store === 'string' && { store: f.store }),
    ...(allowed && { allowedPaymentMethods: allowed }),
    ...(blocked && { blockedPaymentMethods: blocked }),
  };
  return offeredMethods(await tx.paymentMethodSettings.list(link.merchantAccount), query, merchantName)
    .filter((m) => (m.type === 'scheme' || REDIRECT_TYPES.has(m.type)) && linkFitsMethod(link, m.type))
    .map((m) => ({ type: m.type, name: m.type === 'scheme' ? 'Card' : m.name.replace(/\.$/, ''), brands: m.brands ?? [] }));
}

const ERR_METHOD_NOT_OFFERED = {
  status: 422,
  code: '000',
  message: 'This payment link cannot be paid with this payment method',
  errorType: 'validation',
} as const;

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

const field = (name: string, label: string, attributes: string) =>
  `<div class="field"><label for="${name}">${label}</label>
<input type="text" id="${name}" name="${name}" ${attributes} aria-describedby="${name}-error">
<p class="field-error" id="${name}-error" aria-live="polite"></p></div>`;

/** Card brands as shoppers know them (a brand without a name here shows its code). */
const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mc: 'Mastercard',
  amex: 'Amex',
  maestro: 'Maestro',
  jcb: 'JCB',
  cup: 'UnionPay',
  diners: 'Diners',
  discover: 'Discover',
  cartebancaire: 'CB',
};

/** The card fields: labelled, checked in the browser by /hosted/assets/pay.js and again by the server. */
function cardPanel(link: PaymentLink): string {
  const consent =
    link.fields.storePaymentMethodMode === 'askForConsent'
      ? '<div class="field checkbox"><label><input type="checkbox" id="storePaymentMethod" name="storePaymentMethod" value="true"> Save my card for next time</label></div>'
      : '';
  return `${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 5678 9012 3456" maxlength="23"')}
<div class="row">
${field('expiryMonth', 'Expiry month', 'inputmode="numeric" autocomplete="cc-exp-month" placeholder="MM" maxlength="2"')}
${field('expiryYear', 'Expiry year', 'inputmode="numeric" autocomplete="cc-exp-year" placeholder="YYYY" maxlength="4"')}
</div>
${field('cvc', 'Security code (CVC)', 'inputmode="numeric" autocomplete="cc-csc" placeholder="3 or 4 digits" maxlength="4"')}
${field('holderName', 'Name on card', 'autocomplete="cc-name" placeholder="As printed on the card" maxlength="100"')}
${consent}
<p class="fine">Sandbox: use a test card such as 4111 1111 1111 1111, any future expiry and CVC 737.</p>`;
}

/** A redirect method's panel: where the shopper goes next. */
const redirectPanel = (method: PageMethod) =>
  `<p class="note">You approve the payment with ${escapeHtml(method.name)} on the next page, then come back here.</p>
<p class="fine">Sandbox: the next page lets you choose the answer (pay, refuse, cancel, leave pending).</p>`;

/**
 * The payment form: one choice per method (radio buttons: Tab reaches the group, the arrow keys
 * choose), the chosen method's panel shown by the stylesheet (no script needed), one submit
 * button. Browser checks come from pay.js; the server checks everything again.
 */
function paymentForm({ link }: LinkView, methods: PageMethod[]): string {
  // What the submit button says for a method (pay.js switches it with the choice).
  const submitLabel = (method: PageMethod) => (method.type === 'scheme' ? `Pay ${formatMoney(amountOf(link))}` : `Continue to ${escapeHtml(method.name)}`);
  const choices = methods.map((method, i) => {
    const id = `method-${escapeHtml(method.type)}`;
    const submit = submitLabel(method);
    const marks = method.brands.map((b) => `<span class="mark">${escapeHtml(BRAND_NAMES[b] ?? b)}</span>`).join('');
    return `<div class="method">
<input type="radio" name="method" id="${id}" value="${escapeHtml(method.type)}" data-submit="${submit}"${i === 0 ? ' checked' : ''}>
<label for="${id}"><span class="method-name">${escapeHtml(method.name)}</span>${marks ? `<span class="marks">${marks}</span>` : ''}</label>
<div class="method-panel" id="panel-${escapeHtml(method.type)}">
${method.type === 'scheme' ? cardPanel(link) : redirectPanel(method)}
</div>
</div>`;
  });
  return `<form id="pay-form" method="post" action="/payByLink/${encodeURIComponent(link.id)}" novalidate>
<fieldset class="methods">
<legend>Pay with</legend>
${choices.join('\n')}
</fieldset>
<button type="submit" id="pay">${submitLabel(methods[0]!)}</button>
</form>`;
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

/** The method the shopper paid (or tried to pay) with, as the result page names it. */
function paidWith(payment: Pick<Payment, 'paymentMethodType' | 'cardLastFour'>): string {
  if (payment.paymentMethodType === 'ideal') return 'iDEAL';
  if (klarnaFlow.types.includes(payment.paymentMethodType)) return 'Klarna';
  return payment.cardLastFour ? `Card ending ${payment.cardLastFour}` : 'Card';
}

/** What each result tells the shopper: the state, its tone, and a note. */
const RESULT_STATES: Record<string, { state: string; tone: 'ok' | 'bad' | 'wait'; note?: string }> = {
  Authorised: { state: 'Payment successful', tone: 'ok' },
  Refused: { state: 'Payment refused', tone: 'bad' },
  Error: { state: 'Payment failed', tone: 'bad' },
  Cancelled: { state: 'Payment cancelled', tone: 'bad', note: 'You cancelled the payment. No money was taken.' },
  Pending: { state: 'Payment pending', tone: 'wait', note: 'Your bank has not confirmed the payment yet. The merchant lets you know when it does.' },
};

type PaymentShown = Pick<Payment, 'resultCode' | 'pspReference' | 'refusalReason' | 'paymentMethodType' | 'cardLastFour'>;

/** The page after a payment: a clear state, how it was paid, the result code and reference, then Continue (or Try again). */
function resultPage(res: Response, view: LinkView, payment: PaymentShown): void {
  const { link } = view;
  const { state, tone, note } = RESULT_STATES[payment.resultCode] ?? { state: 'Payment received', tone: 'ok' };
  const failed = tone === 'bad';
  const reasonText = note ?? (failed && payment.refusalReason ? `${payment.refusalReason}. No money was taken.` : '');
  const reason = reasonText ? `<p class="note" id="reason">${escapeHtml(reasonText)}</p>` : '';
  const retry = failed ? `<a class="button" id="retry" href="/payByLink/${encodeURIComponent(link.id)}">Try again</a>` : '';
  sendHostedPage(res, 200, {
    title: state,
    body: `${linkHeader(view, tone === 'ok' ? 'Paid' : 'Pay')}
<p class="state ${tone}" id="state" role="status">${state}</p>
${reason}
<dl>
<dt>Payment method</dt><dd id="payment-method">${escapeHtml(paidWith(payment))}</dd>
<dt>Result</dt><dd id="result">${escapeHtml(payment.resultCode)}</dd>
<dt>Payment reference</dt><dd id="psp">${escapeHtml(payment.pspReference)}</dd>
</dl>
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
 * The hosted payment page a payment link's `url` points at. The shopper chooses one of the
 * link's methods (linkMethods): a test card, or a redirect method (iDEAL, Klarna) approved on its
 * hosted page; an authorised payment completes a link that is not reusable. 3D Secure cards and
 * the redirect methods go through their hosted page and come back to /payByLink/{id}/return,
 * which applies the answer as /payments/details does. After the payment, Continue leads to the
 * link's returnUrl.
 */
export function payByLinkPage(deps: { store: Store; clock: Clock; vault: CardVault; redirects: RedirectSigner; publicBaseUrl: string }): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/payByLink/:id', async (req, res) => {
    const found = await deps.store.transaction(async (tx) => {
      const link = await currentLink(tx, deps.clock.now(await companyOfLink(tx, req.params.id)), req.params.id);
      const view = link && (await viewOf(tx, link));
      return view && { view, methods: await linkMethods(tx, view) };
    });
    if (!found)
      return messagePage(res, 404, 'Payment link not found', 'This payment link does not exist. Check the address, or ask the merchant for a new link.');
    const { view, methods } = found;
    if (view.link.status !== 'active' && view.link.status !== 'paymentPending') return closedLinkPage(res, view);
    const pending =
      view.link.status === 'paymentPending' ? '<p class="note" id="pending">An earlier payment of this link was not finished. You can pay again.</p>' : '';
    const body =
      methods.length > 0
        ? paymentForm(view, methods)
        : '<p class="note" id="no-methods">None of the payment methods this link allows can be paid on this page. Ask the merchant for another link.</p>';
    sendHostedPage(res, 200, { title: `Pay ${view.merchantName}`, body: `${linkHeader(view, 'Pay')}\n${pending}\n${body}`, script: 'pay.js' });
  });

  router.post('/payByLink/:id', form, async (req, res) => {
    const fields = formFields(req.body);
    const base = baseUrlOf(req, deps.publicBaseUrl);
    try {
      const outcome = await deps.store.transaction(
        async (tx) => {
          const now = deps.clock.now(await companyOfLink(tx, req.params.id));
          const link = await payableLink(tx, now, req.params.id);
          const view = await viewOf(tx, link);
          // A form without a choice is the card form of earlier pages.
          const type = fields.method ?? 'scheme';
          if (!(await linkMethods(tx, view)).some((m) => m.type === type)) {
            throw new ApiError(ERR_METHOD_NOT_OFFERED, { message: `This payment link cannot be paid with '${type}'` });
          }
          const f = link.fields as {
            amount: Money;
            shopperReference?: string;
            shopperEmail?: string;
            storePaymentMethodMode?: string;
            recurringProcessingModel?: PaymentInput['recurringProcessingModel'];
            captureDelayHours?: number;
            manualCapture?: boolean;
            lineItems?: PaymentInput['lineItems'];
            countryCode?: string;
            shopperLocale?: string;
          };
          const card = type === 'scheme';
          const store =
            card && (f.storePaymentMethodMode === 'enabled' || (f.storePaymentMethodMode === 'askForConsent' && fields.storePaymentMethod === 'true'));
          const cardFields = Object.fromEntries(
            ['number', 'expiryMonth', 'expiryYear', 'cvc', 'holderName'].filter((k) => fields[k]).map((k) => [k, fields[k]!]),
          );
          if (cardFields.number) cardFields.number = cardFields.number.replace(/[\s-]/g, '');
          const result = await makePayment({ tx, now, vault: deps.vault }, shopperActor(link.companyId, link.merchantAccount), {
            merchantAccount: link.merchantAccount,
            reference: link.reference,
            returnUrl: `${base}/payByLink/${link.id}/return`,
            amount: f.amount,
            // Not a card: an offered redirect method (iDEAL, Klarna), which needs nothing but its type.
            paymentMethod: card ? { type: 'scheme', ...cardFields } : ({ type } as PaymentMethodInput),
            paymentLinkId: link.id,
            ...(f.shopperReference && { shopperReference: f.shopperReference }),
            ...(f.shopperEmail && { shopperEmail: f.shopperEmail }),
            ...(f.lineItems && { lineItems: f.lineItems }),
            ...(f.countryCode && { countryCode: f.countryCode }),
            ...(f.shopperLocale && { shopperLocale: f.shopperLocale }),
            ...(f.captureDelayHours !== undefined && { captureDelayHours: f.captureDelayHours }),
            ...(f.manualCapture && { additionalData: { manualCapture: 'true' } }),
            ...(store && { storePaymentMethod: true }),
            ...(card && f.recurringProcessingModel && { recurringProcessingModel: f.recurringProcessingModel }),
          });
          await recordLinkPayment(tx, now, link, result.payment.resultCode);
          return { payment: result.payment, view };
        },
        { requestId: requestIdOf(res) },
      );
      // 3D Secure and the redirect methods: to the issuer's or the method's page, which sends the shopper back to /payByLink/{id}/return.
      const action = flowOfPayment(outcome.payment.paymentMethodType).action?.(outcome.payment, base);
      if (action?.type === 'redirect' && action.url) return res.redirect(303, action.url);
      resultPage(res, outcome.view, outcome.payment);
    } catch (error) {
      refusalPage(res, error);
    }
  });

  router.get('/payByLink/:id/return', async (req, res) => {
    const redirectResult = typeof req.query.redirectResult === 'string' ? req.query.redirectResult : '';
    try {
      const outcome = await deps.store.transaction(
        async (tx) => {
          const link = await tx.links.getForUpdate(req.params.id);
          if (!link) throw new ApiError({ status: 404, code: '000', message: 'Not Found', errorType: 'validation' });
          const now = deps.clock.now(link.companyId);
          const result = await submitPaymentDetails({ tx, now, vault: deps.vault }, shopperActor(link.companyId, link.merchantAccount), deps.redirects, {
            details: { redirectResult },
          });
          await recordLinkPayment(tx, now, link, result.payment.resultCode);
          return { payment: result.payment, view: await viewOf(tx, link) };
        },
        { requestId: requestIdOf(res) },
      );
      resultPage(res, outcome.view, outcome.payment);
    } catch (error) {
      refusalPage(res, error);
    }
  });
  return router;
}
