import type { Request } from 'express';
import { command, type HandlerDeps, operation } from '../../kernel/http/handler.js';
import type { Caller } from '../../kernel/http/request-context.js';
import type { Tx } from '../../store/tx.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import { flowOfPayment } from '../payments/methods/index.js';
import { toPaymentResponse } from '../payments/payments.js';
import {
  createSession,
  payInSession,
  type SessionDetailsInput,
  type SessionPaymentInput,
  type SessionStep,
  sessionResult,
  submitDetailsInSession,
} from './sessions.domain.js';

/** POST /sessions */
export const sessions = command('sessions')(async ({ tx, body, caller, req }, deps) => {
  const session = await createSession(tx, deps.clock.now(caller.credential.companyId), caller.credential, body, (t) => deps.redirects.mac(t));
  return {
    ...session.fields,
    // The same values as the stored fields hold, from the typed request (the store keeps fields untyped).
    amount: body.amount,
    returnUrl: body.returnUrl,
    id: session.id,
    merchantAccount: session.merchantAccount,
    reference: session.reference,
    expiresAt: session.expiresAt,
    sessionData: session.sessionData,
    ...(session.fields.mode === 'hosted' && { url: `${baseUrlOf(req, deps.config.publicBaseUrl)}/hosted/sessions/${session.id}` }),
  };
});

/**
 * The answer to a client-side session call: the payment's result and next action, the session
 * data for the next call and the session result to read. After a details step only a 3D Secure 2
 * action is answered, as /payments/details does.
 */
function sessionAnswer({ session, outcome, sessionResult }: SessionStep, baseUrl: string, step: 'payment' | 'details') {
  const payment = toPaymentResponse(outcome, baseUrl);
  const action = step === 'payment' || payment.action?.type === 'threeDS2' ? payment.action : undefined;
  return {
    pspReference: payment.pspReference,
    resultCode: outcome.payment.resultCode,
    ...(action && { action }),
    ...(payment.refusalReason && { refusalReason: payment.refusalReason }),
    ...(payment.order && { order: payment.order }),
    sessionData: session.sessionData,
    sessionResult,
  };
}

/** What the session payment calls of both areas (an API key here, a client key client-side) are called with. */
interface SessionCall<Body> {
  tx: Tx;
  body: Body;
  path: { sessionId: string };
  caller: Caller;
  req: Request;
}

/** Pays in the session of the path and answers as the checkout area does; the client-side area trims the answer. */
export async function paySession({ tx, body, path, caller, req }: SessionCall<SessionPaymentInput>, deps: HandlerDeps) {
  const paid = await payInSession({ tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault }, caller.credential, path.sessionId, body, (t) =>
    deps.redirects.mac(t),
  );
  return sessionAnswer(paid, baseUrlOf(req, deps.config.publicBaseUrl), 'payment');
}

/** Takes the next step of one of the session's payments and answers as the checkout area does. */
export async function submitSessionDetails({ tx, body, path, caller, req }: SessionCall<SessionDetailsInput>, deps: HandlerDeps) {
  const submitted = await submitDetailsInSession(
    { tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault },
    caller.credential,
    deps.redirects,
    path.sessionId,
    body,
    (t) => deps.redirects.mac(t),
  );
  return sessionAnswer(submitted, baseUrlOf(req, deps.config.publicBaseUrl), 'details');
}

/** POST /sessions/{sessionId}/payments */
export const sessionPayments = command('sessionPayments')((call, deps) => paySession(call, deps));

/** POST /sessions/{sessionId}/paymentDetails */
export const sessionPaymentDetails = command('sessionPaymentDetails')((call, deps) => submitSessionDetails(call, deps));

/** GET /sessions/{sessionId} */
export const getResultOfPaymentSession = operation('getResultOfPaymentSession')(async ({ path, query, caller: { credential } }, deps) => {
  const { session, payments, status } = await deps.store.read((tx) =>
    sessionResult(tx, deps.clock.now(credential.companyId), credential, path.sessionId, query.sessionResult, (t) => deps.redirects.mac(t)),
  );
  return {
    id: session.id,
    reference: session.reference,
    status,
    payments: payments.map((p) => ({
      pspReference: p.pspReference,
      resultCode: p.resultCode,
      amount: { currency: p.currency, value: p.originalValue },
      paymentMethod: flowOfPayment(p.paymentMethodType).responseMethod?.(p) ?? { type: p.paymentMethodType },
    })),
  };
});
