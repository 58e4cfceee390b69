import { type Request, type Response, Router } from 'express';
import { parseOrigin } from '../../kernel/auth/origins.js';
import type { Payment } from '../../store/types.js';
import type { Store } from '../../store/tx.js';
import { escapeHtml, formatMoney, formField as field, hostedForm as form, sendHostedPage } from '../hosted-assets/hosted-page.js';
import { CHALLENGE_PASSWORD, decodeJson, encodeJson, MESSAGE_VERSION, type ThreeDSState } from './three-ds2.js';

/**
 * The issuer's side of native 3D Secure 2, as Adyen's web library frames it (three-ds2.ts puts
 * these addresses into the tokens of the threeDS2 actions):
 *
 * - the 3DS method page (`threeDSMethodUrl`): the library posts `threeDSMethodData` (base64url
 *   JSON with `threeDSServerTransID`) into a hidden iframe; an issuer would fingerprint the
 *   device there, the sandbox does not, and the page goes on to the notification page at once;
 * - the access control server's challenge (`acsURL`): the library posts a `creq` into a visible
 *   iframe; the shopper types the password (`password` passes, anything else fails), the answer
 *   is recorded on the payment, and the page goes on to the notification page with the `cres`;
 * - the notification page (`threeDSMethodNotificationURL`, `threeDSNotificationURL`): posts the
 *   library's page what it waits for, a JSON string from this origin:
 *   `{"type":"fingerPrintResult","result":{"threeDSCompInd":"Y"}}` after the method,
 *   `{"type":"challengeResult","result":{"transStatus":"Y"|"N"}}` after the challenge.
 *
 * The library's page then sends the result to the payment details operations, where the
 * challenge's outcome is the one recorded here, whatever the page reports. The pages are framed
 * by the merchant's checkout (any origin, as an issuer's are), load only our script and
 * stylesheet, and post the message only to the origin that started the step (the `Origin` of the
 * library's form post, carried from page to page) when the browser sent one.
 */

const BASE = '/hosted/3ds2';

/** An origin as a browser sends it (`scheme://host[:port]`, http or https), or undefined. */
function originOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseOrigin(value);
  return 'origin' in parsed ? parsed.origin : undefined;
}

/**
 * The page that started the step: the `Origin` of the library's form post (the merchant's page),
 * or on the pages that follow, the one carried in the form.
 */
const startedBy = (req: Request, carried: boolean): string | undefined => originOf(carried ? field(req, 'parentOrigin') : req.get('origin'));

const carriedOrigin = (origin: string | undefined) => (origin ? `\n<input type="hidden" name="parentOrigin" value="${escapeHtml(origin)}">` : '');

/** A page of these steps: framed by the merchant's checkout, with the script that moves the steps on. */
const send = (res: Response, status: number, title: string, body: string) => sendHostedPage(res, status, { title, body, script: 'three-ds2.js', framed: true });

const notWaiting = (res: Response) =>
  send(
    res,
    404,
    'Nothing to answer',
    '<h1>Nothing to answer</h1>\n<p class="note">No payment waits for this challenge: it was already answered, or the link is wrong.</p>',
  );

/** The form to the notification page, which the script submits at once (its button for a browser without scripts). */
const toNotification = (name: 'threeDSMethodData' | 'cres', value: string, origin: string | undefined) =>
  `<form method="post" action="${BASE}/notification" data-auto-submit>
<input type="hidden" name="${name}" value="${escapeHtml(value)}">${carriedOrigin(origin)}
<div class="actions"><button class="button" id="continue" type="submit">Continue</button></div>
</form>`;

const threeDSOf = (p: Payment) => p.methodState.threeDS as ThreeDSState | undefined;
const inChallenge = (p: Payment) => p.resultCode === 'ChallengeShopper' && threeDSOf(p)?.mode === 'native';

/** The challenge: a password form (the sandbox's password is `password`). */
function challengePage(res: Response, payment: Payment, merchantName: string, origin: string | undefined): void {
  const psp = encodeURIComponent(payment.pspReference);
  send(
    res,
    200,
    'Confirm your payment',
    `<header>
<p class="merchant">Test issuer · 3D Secure 2</p>
<h1>Confirm your payment</h1>
<p class="description">Enter the password your bank gave you. Sandbox: the password is <code>${CHALLENGE_PASSWORD}</code>; anything else fails.</p>
</header>
<dl>
<dt>Merchant</dt><dd id="merchant">${escapeHtml(merchantName)}</dd>
<dt>Amount</dt><dd id="amount">${formatMoney({ currency: payment.currency, value: payment.originalValue })}</dd>
<dt>Card</dt><dd>ending ${escapeHtml(payment.cardLastFour)}</dd>
</dl>
<form method="post" action="${BASE}/acs/${psp}/answer">${carriedOrigin(origin)}
<div class="field"><label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="one-time-code" required></div>
<div class="actions"><button class="button" id="submit" type="submit">Confirm</button></div>
</form>`,
  );
}

/** The message the library's page waits for, from the notification page's form. */
function notification(req: Request): { title: string; text: string; message: object; cres?: string } {
  const cres = field(req, 'cres');
  if (cres !== undefined) {
    // What the access control server said; the payment details operations apply its recorded answer.
    const said = decodeJson(cres)?.transStatus;
    const transStatus = typeof said === 'string' && /^[A-Z]$/.test(said) ? said : 'U';
    return {
      title: 'Authentication finished',
      text: "You can return to the merchant's page.",
      message: { type: 'challengeResult', result: { transStatus } },
      cres,
    };
  }
  const methodData = decodeJson(field(req, 'threeDSMethodData') ?? '');
  const threeDSCompInd = typeof methodData?.threeDSServerTransID === 'string' ? 'Y' : 'N';
  return { title: 'Device checked', text: 'Your bank has checked this device.', message: { type: 'fingerPrintResult', result: { threeDSCompInd } } };
}

/** The pages of native 3D Secure 2 (see above), under /hosted/3ds2. */
export function threeDS2Pages(store: Store): Router {
  const router = Router();

  const method = (req: Request, res: Response) => {
    const data = field(req, 'threeDSMethodData') ?? '';
    send(
      res,
      200,
      'Checking your device',
      `<h1>Checking your device</h1>
<p class="note">Your bank checks the device you pay with.</p>
${toNotification('threeDSMethodData', data, startedBy(req, false))}`,
    );
  };
  router.post(`${BASE}/method`, form, method);

  const show = async (req: Request, res: Response) => {
    const found = await store.read(async (tx) => {
      const payment = await tx.payments.get(String(req.params.psp));
      if (!payment || !inChallenge(payment)) return undefined;
      return { payment, merchantName: (await tx.merchants.get(payment.merchantAccount))?.name ?? payment.merchantAccount };
    });
    if (!found) return notWaiting(res);
    challengePage(res, found.payment, found.merchantName, startedBy(req, false));
  };
  router.get(`${BASE}/acs/:psp`, show);
  router.post(`${BASE}/acs/:psp`, form, show);

  router.post(`${BASE}/acs/:psp/answer`, form, async (req, res) => {
    const transStatus = field(req, 'password') === CHALLENGE_PASSWORD ? 'Y' : 'N';
    const answered = await store.transaction(async (tx) => {
      const payment = await tx.payments.getForUpdate(String(req.params.psp));
      if (!payment || !inChallenge(payment)) return undefined;
      const changed: Payment = { ...payment, methodState: { ...payment.methodState, threeDS: { ...threeDSOf(payment)!, acsAnswer: transStatus } } };
      await tx.payments.update(changed, payment);
      return changed;
    });
    if (!answered) return notWaiting(res);
    const state = threeDSOf(answered)!;
    const cres = encodeJson({
      threeDSServerTransID: state.threeDSServerTransID,
      acsTransID: state.acsTransID,
      messageType: 'CRes',
      messageVersion: MESSAGE_VERSION,
      transStatus,
    });
    const passed = transStatus === 'Y';
    send(
      res,
      200,
      passed ? 'Payment confirmed' : 'Confirmation failed',
      `<h1>${passed ? 'Payment confirmed' : 'Confirmation failed'}</h1>
<p class="state ${passed ? 'ok' : 'bad'}" id="status" data-trans-status="${transStatus}">${passed ? 'Your bank confirmed the payment.' : 'The password was wrong: your bank did not confirm the payment.'}</p>
${toNotification('cres', cres, startedBy(req, true))}`,
    );
  });

  const notify = (req: Request, res: Response) => {
    const { title, text, message, cres } = notification(req);
    const origin = startedBy(req, true);
    send(
      res,
      200,
      title,
      `<h1>${title}</h1>
<p class="note" id="three-ds2-result" data-message="${escapeHtml(JSON.stringify(message))}" data-target-origin="${escapeHtml(origin ?? '*')}"${
        cres === undefined ? '' : ` data-cres="${escapeHtml(cres)}"`
      }>${text}</p>`,
    );
  };
  router.get(`${BASE}/notification`, notify);
  router.post(`${BASE}/notification`, form, notify);
  return router;
}
