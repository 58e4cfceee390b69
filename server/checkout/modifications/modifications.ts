import { command, type HandlerDeps } from '../../kernel/http/handler.js';
import type { Caller } from '../../kernel/http/request-context.js';
import type { Tx } from '../../store/tx.js';
import {
  cancelPayment,
  cancelPaymentByReference,
  capturePayment,
  type ModificationOutcome,
  refundPayment,
  reversePayment,
  updatePaymentAmount,
} from './modifications.domain.js';

/** What every modification use case runs with. */
const contextOf = ({ tx, caller }: { tx: Tx; caller: Caller }, deps: HandlerDeps) => ({
  tx,
  now: deps.clock.now(caller.credential.companyId),
  credential: caller.credential,
});

/** The fields every modification response on a payment carries (with `status: 'received'`). */
function received({ modification }: ModificationOutcome) {
  return {
    merchantAccount: modification.merchantAccount,
    paymentPspReference: modification.paymentPspReference,
    pspReference: modification.pspReference,
  };
}

/** POST /payments/{paymentPspReference}/captures */
export const captureAuthorisedPayment = command('captureAuthorisedPayment')(async (call, deps) => {
  const { body, path } = call;
  const outcome = await capturePayment(contextOf(call, deps), path.paymentPspReference, body);
  const { reference, amount, lineItems, splits, subMerchants, platformChargebackLogic } = body;
  return { ...received(outcome), status: 'received', reference, amount, lineItems, splits, subMerchants, platformChargebackLogic };
});

/** POST /payments/{paymentPspReference}/refunds */
export const refundCapturedPayment = command('refundCapturedPayment')(async (call, deps) => {
  const { body, path } = call;
  const outcome = await refundPayment(contextOf(call, deps), path.paymentPspReference, body);
  const { reference, amount, lineItems, splits, merchantRefundReason, capturePspReference, store } = body;
  return { ...received(outcome), status: 'received', reference, amount, lineItems, splits, merchantRefundReason, capturePspReference, store };
});

/** POST /payments/{paymentPspReference}/cancels */
export const cancelAuthorisedPaymentByPspReference = command('cancelAuthorisedPaymentByPspReference')(async (call, deps) => {
  const { body, path } = call;
  const outcome = await cancelPayment(contextOf(call, deps), path.paymentPspReference, body);
  return { ...received(outcome), status: 'received', reference: body.reference };
});

/** POST /cancels */
export const cancelAuthorisedPayment = command('cancelAuthorisedPayment')(async (call, deps) => {
  const { body } = call;
  const { modification } = await cancelPaymentByReference(contextOf(call, deps), body);
  return {
    merchantAccount: modification.merchantAccount,
    paymentReference: body.paymentReference,
    pspReference: modification.pspReference,
    status: 'received',
    reference: body.reference,
  };
});

/** POST /payments/{paymentPspReference}/reversals */
export const refundOrCancelPayment = command('refundOrCancelPayment')(async (call, deps) => {
  const { body, path } = call;
  const outcome = await reversePayment(contextOf(call, deps), path.paymentPspReference, body);
  return { ...received(outcome), status: 'received', reference: body.reference };
});

/** POST /payments/{paymentPspReference}/amountUpdates */
export const updateAuthorisedAmount = command('updateAuthorisedAmount')(async (call, deps) => {
  const { body, path } = call;
  const outcome = await updatePaymentAmount(contextOf(call, deps), path.paymentPspReference, body);
  const { amount, lineItems, splits, industryUsage } = body;
  return { ...received(outcome), status: 'received', reference: body.reference ?? '', amount, lineItems, splits, industryUsage };
});
