import type { operations } from '../../generated/checkout.js';
import { baseUrlOf, pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import { toPaymentResponse } from './payments.js';
import { createSession, payInSession, sessionResult } from './sessions.domain.js';

/** POST /sessions */
export const sessions: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['sessions']>;
    const session = await createSession(tx, deps.clock.now(caller.credential.companyId), caller.credential, body, (t) => deps.redirects.mac(t));
    return {
      ...session.fields,
      id: session.id,
      merchantAccount: session.merchantAccount,
      reference: session.reference,
      expiresAt: session.expiresAt,
      sessionData: session.sessionData,
      ...(session.fields.mode === 'hosted' && { url: `${baseUrlOf(req, deps.config.publicBaseUrl)}/hosted/sessions/${session.id}` }),
    };
  });

/** POST /sessions/{sessionId}/payments */
export const sessionPayments: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['sessionPayments']>;
    const { session, outcome, sessionResult: result } = await payInSession(
      { tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault },
      caller.credential,
      pathParam(req, 'sessionId'),
      body,
      (t) => deps.redirects.mac(t),
    );
    const payment = toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
    return {
      pspReference: payment.pspReference,
      resultCode: payment.resultCode,
      ...(payment.action?.type === 'redirect' && { action: payment.action }),
      ...(payment.refusalReason && { refusalReason: payment.refusalReason }),
      sessionData: session.sessionData,
      sessionResult: result,
    };
  });

/** GET /sessions/{sessionId} */
export const getResultOfPaymentSession: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const id = pathParam(req, 'sessionId');
  const result = String(req.query.sessionResult ?? '');
  const { session, payments, status } = await deps.store.read((tx) => sessionResult(tx, deps.clock.now(credential.companyId), credential, id, result, (t) => deps.redirects.mac(t)));
  res.json({
    id: session.id,
    reference: session.reference,
    status,
    payments: payments.map((p) => ({
      pspReference: p.pspReference,
      resultCode: p.resultCode,
      amount: { currency: p.currency, value: p.originalValue },
      paymentMethod: p.paymentMethodType === 'scheme' ? { brand: p.cardBrand, type: 'scheme' } : { type: p.paymentMethodType },
    })),
  });
};
