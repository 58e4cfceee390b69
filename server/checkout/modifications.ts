import type { operations } from '../../generated/checkout.js';
import { pathParam } from '../http/links.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import {
  cancelPayment,
  cancelPaymentByReference,
  capturePayment,
  type ModificationOutcome,
  refundPayment,
  reversePayment,
  updatePaymentAmount,
} from './modifications.domain.js';

/** The fields every modification response carries. */
function received({ modification }: ModificationOutcome, reference: string | undefined) {
  return {
    merchantAccount: modification.merchantAccount,
    paymentPspReference: modification.paymentPspReference,
    pspReference: modification.pspReference,
    status: 'received' as const,
    ...(reference !== undefined && { reference }),
  };
}

/** POST /payments/{paymentPspReference}/captures */
export const captureAuthorisedPayment: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['captureAuthorisedPayment']>;
    const ctx = { tx, now: deps.clock.now(caller.credential.companyId), credential: caller.credential };
    const outcome = await capturePayment(ctx, pathParam(req, 'paymentPspReference'), body);
    const { lineItems, splits, subMerchants, platformChargebackLogic } = body;
    return { ...received(outcome, body.reference), amount: body.amount, lineItems, splits, subMerchants, platformChargebackLogic };
  });

/** POST /payments/{paymentPspReference}/refunds */
export const refundCapturedPayment: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['refundCapturedPayment']>;
    const ctx = { tx, now: deps.clock.now(caller.credential.companyId), credential: caller.credential };
    const outcome = await refundPayment(ctx, pathParam(req, 'paymentPspReference'), body);
    const { lineItems, splits, merchantRefundReason, capturePspReference, store } = body;
    return { ...received(outcome, body.reference), amount: body.amount, lineItems, splits, merchantRefundReason, capturePspReference, store };
  });

/** POST /payments/{paymentPspReference}/cancels */
export const cancelAuthorisedPaymentByPspReference: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['cancelAuthorisedPaymentByPspReference']>;
    const ctx = { tx, now: deps.clock.now(caller.credential.companyId), credential: caller.credential };
    return received(await cancelPayment(ctx, pathParam(req, 'paymentPspReference'), body), body.reference);
  });

/** POST /cancels */
export const cancelAuthorisedPayment: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['cancelAuthorisedPayment']>;
    const ctx = { tx, now: deps.clock.now(caller.credential.companyId), credential: caller.credential };
    const { modification } = await cancelPaymentByReference(ctx, body);
    return {
      merchantAccount: modification.merchantAccount,
      paymentReference: body.paymentReference,
      pspReference: modification.pspReference,
      status: 'received' as const,
      ...(body.reference !== undefined && { reference: body.reference }),
    };
  });

/** POST /payments/{paymentPspReference}/reversals */
export const refundOrCancelPayment: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['refundOrCancelPayment']>;
    const ctx = { tx, now: deps.clock.now(caller.credential.companyId), credential: caller.credential };
    return received(await reversePayment(ctx, pathParam(req, 'paymentPspReference'), body), body.reference);
  });

/** POST /payments/{paymentPspReference}/amountUpdates */
export const updateAuthorisedAmount: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['updateAuthorisedAmount']>;
    const ctx = { tx, now: deps.clock.now(caller.credential.companyId), credential: caller.credential };
    const outcome = await updatePaymentAmount(ctx, pathParam(req, 'paymentPspReference'), body);
    const { lineItems, splits, industryUsage } = body;
    return { ...received(outcome, undefined), reference: body.reference ?? '', amount: body.amount, lineItems, splits, industryUsage };
  });
