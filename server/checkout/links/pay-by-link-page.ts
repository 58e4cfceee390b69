import express, { Router, type Response } from 'express';
import type { Clock } from '../../kernel/clock.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError } from '../../kernel/errors.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { PaymentLink, Store, Tx } from '../../store/types.js';
import { currentLink, payableLink, recordLinkPayment, shopperActor } from './payment-links.domain.js';
import { makePayment, submitPaymentDetails } from '../payments/payments.domain.js';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (link: PaymentLink) => {
  const amount = link.fields.amount as { currency: string; value: number };
  return `${escapeHtml(amount.currency)} ${(amount.value / 100).toFixed(2)}`;
};

function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .type('html')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`);
}

/**
 * The hosted payment page a payment link's `url` points at. A shopper pays with a test card;
 * an authorised payment completes a link that is not reusable. 3D Secure cards go through the
 * hosted issuer page and come back to /payByLink/{id}/return.
 */
/** The page after a payment: its result code and reference. */
function resultPage(res: Response, payment: { resultCode: string; pspReference: string }): void {
  page(res, 200, 'Payment result', `<p id="result">${escapeHtml(payment.resultCode)}</p><p id="psp">${escapeHtml(payment.pspReference)}</p>`);
}

/** The page when the payment could not be made: the API error's code and message (anything else is a 500). */
function refusalPage(res: Response, error: unknown): void {
  if (!(error instanceof ApiError)) throw error;
  page(res, error.status, 'Payment not possible', `<p id="error" data-code="${escapeHtml(error.code)}">${escapeHtml(error.message)}</p>`);
}

/** The text fields of a posted form (urlencoded): anything else is ignored. */
function formFields(body: unknown): Record<string, string | undefined> {
  if (body === null || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The company a link belongs to, whose sandbox clock decides its expiry ('' for an unknown link: real time). */
async function companyOfLink(tx: Tx, id: string): Promise<string> {
  return (await tx.getPaymentLink(id))?.companyId ?? '';
}

export function payByLinkPage(deps: { store: Store; clock: Clock; vault: CardVault; redirects: RedirectSigner; publicBaseUrl: string }): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/payByLink/:id', async (req, res) => {
    const link = await deps.store.transaction(async (tx) => currentLink(tx, deps.clock.now(await companyOfLink(tx, req.params.id)), req.params.id));
    if (!link) return page(res, 404, 'Not found', '<p>This payment link does not exist.</p>');
    if (link.status !== 'active') return page(res, 410, 'Payment link', `<p id="status">This payment link is ${escapeHtml(link.status)}.</p>`);
    const consent =
      link.fields.storePaymentMethodMode === 'askForConsent'
        ? '<label><input type="checkbox" name="storePaymentMethod" value="true"> Save my card</label>'
        : '';
    page(
      res,
      200,
      'Pay',
      `<h1>Pay ${money(link)}</h1><p>${escapeHtml(typeof link.fields.description === 'string' ? link.fields.description : link.reference)}</p>
<form method="post"><input name="number" autocomplete="cc-number" placeholder="Card number"><input name="expiryMonth" placeholder="MM"><input name="expiryYear" placeholder="YYYY">
<input name="cvc" placeholder="CVC"><input name="holderName" placeholder="Name on card">${consent}<button type="submit">Pay</button></form>`,
    );
  });

  router.post('/payByLink/:id', form, async (req, res) => {
    const fields = formFields(req.body);
    const base = baseUrlOf(req, deps.publicBaseUrl);
    try {
      const outcome = await deps.store.transaction(async (tx) => {
        const now = deps.clock.now(await companyOfLink(tx, req.params.id));
        const link = await payableLink(tx, now, req.params.id);
        const f = link.fields as {
          amount: { currency: string; value: number };
          shopperReference?: string;
          shopperEmail?: string;
          storePaymentMethodMode?: string;
          recurringProcessingModel?: string;
          captureDelayHours?: number;
          manualCapture?: boolean;
        };
        const store = f.storePaymentMethodMode === 'enabled' || (f.storePaymentMethodMode === 'askForConsent' && fields.storePaymentMethod === 'true');
        const card = Object.fromEntries(['number', 'expiryMonth', 'expiryYear', 'cvc', 'holderName'].filter((k) => fields[k]).map((k) => [k, fields[k]!]));
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
        return result;
      });
      if (outcome.payment.resultCode === 'RedirectShopper') return res.redirect(303, `${base}/hosted/3ds/${outcome.payment.pspReference}`);
      resultPage(res, outcome.payment);
    } catch (error) {
      refusalPage(res, error);
    }
  });

  router.get('/payByLink/:id/return', async (req, res) => {
    const redirectResult = typeof req.query.redirectResult === 'string' ? req.query.redirectResult : '';
    try {
      const outcome = await deps.store.transaction(async (tx) => {
        const link = await tx.getPaymentLink(req.params.id);
        if (!link) throw new ApiError({ status: 404, code: '000', message: 'Not Found', errorType: 'validation' });
        const now = deps.clock.now(link.companyId);
        const result = await submitPaymentDetails({ tx, now, vault: deps.vault }, shopperActor(link.companyId, link.merchantAccount), deps.redirects, {
          details: { redirectResult },
        });
        await recordLinkPayment(tx, now, link, result.payment.resultCode);
        return result;
      });
      resultPage(res, outcome.payment);
    } catch (error) {
      refusalPage(res, error);
    }
  });
  return router;
}
