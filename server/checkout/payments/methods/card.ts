import { ApiError, ERR_ALREADY_PROCESSED, ERR_INVALID_DETAILS } from '../../../kernel/errors.js';
import type { Payment, StoredPaymentMethod } from '../../../store/types.js';
import { cardOfToken, storeCard, tokenOf } from '../../stored-methods/tokens.domain.js';
import { authorise, isFinal, newPaymentData, type PaymentInput, refuse } from '../authorisation.js';
import { type Card, type CardInput, EXPIRED_CARD, isExpired, NOT_AUTHENTICATED, readCard, type Refusal } from '../cards.js';
import { refusalOfRow, requestedTestResult } from '../test-results.js';
import {
  challengeToken,
  encodeJson,
  fingerprintToken,
  flowOfCard,
  newAuthorisationToken,
  newThreeDSState,
  readThreeDSSubmission,
  resultOf,
  sameToken,
  type ThreeDSState,
} from '../three-ds2.js';
import type { CompleteContext, Completion, MethodOf, PaymentMethodFlow, StartContext } from './method.js';

/** A card payment the test table answers with Received waits this long on the sandbox clock for its outcome. */
export const TEST_PENDING_SETTLES_AFTER_MS = 10 * 60 * 1000;

/**
 * What the test platform decides for a card before anything else (cards, Bancontact cards, stored
 * cards, wallets): the row of Adyen's test table the request asks for
 * (`additionalData.RequestedTestAcquirerResponseCode`, else the holder name; test-results.ts),
 * then an expired card. A refusal (Refused, Error or Cancelled) is final at once; `pending` is
 * the PENDING row's Received. APPROVED, an unknown code and any other name decide nothing.
 */
export function testDecisionOf(card: Card, now: Date, additionalData: PaymentInput['additionalData']): { refusal: Refusal } | { pending: true } | undefined {
  const asked = requestedTestResult(card.holderName, additionalData);
  if (asked?.result.resultCode === 'Received') return { pending: true };
  const refusal = asked && refusalOfRow(asked.result, asked.raw);
  if (refusal) return { refusal };
  return isExpired(card, now) ? { refusal: EXPIRED_CARD } : undefined;
}

/**
 * A card payment decided by the test platform: refused at once, or Received with its outcome
 * later. Adyen documents Received as "the final result comes by webhook" but not which result its
 * test platform sends for PENDING; an integrator testing that path needs one, so here the payment
 * is authorised ten minutes later on the sandbox clock (settleTestPending), reported as a
 * successful AUTHORISATION then.
 */
export function decideByTest(carded: Payment, decision: { refusal: Refusal } | { pending: true }, now: Date): Payment {
  if ('refusal' in decision) return refuse(carded, decision.refusal, now);
  return {
    ...carded,
    resultCode: 'Received',
    settleAt: new Date(now.getTime() + TEST_PENDING_SETTLES_AFTER_MS).toISOString(),
    updatedAt: now.toISOString(),
  };
}

/** The clock step of a card payment left Received by the test table: it is authorised (see decideByTest). */
export function settleTestPending(ctx: { now: Date }, payment: Payment): Promise<Payment> {
  if (isFinal(payment) || payment.resultCode !== 'Received') return Promise.resolve({ ...payment, settleAt: null });
  return Promise.resolve(authorise(payment, ctx.now));
}

/** The card of the request: a stored one (by its token) or the card details sent. */
export async function cardOfRequest(ctx: StartContext): Promise<{ card: Card; token: StoredPaymentMethod | undefined }> {
  const { input, merchant } = ctx;
  const stored = (input.paymentMethod as MethodOf<'scheme' | 'card' | 'bcmc'>).storedPaymentMethodId;
  const token = typeof stored === 'string' ? await tokenOf(ctx.tx, merchant.id, input.shopperReference, stored) : undefined;
  return { card: token ? cardOfToken(ctx.vault, token) : readCard(input.paymentMethod as CardInput), token };
}

/** The payment carries the card's brand, first six and last four digits, expiry and holder (never the number). */
export function withCard(payment: Payment, card: Card): Payment {
  return {
    ...payment,
    cardBrand: card.brand,
    cardBin: card.number.slice(0, 6),
    cardLastFour: card.number.slice(-4),
    expiryMonth: String(card.expiryMonth),
    expiryYear: String(card.expiryYear),
    holderName: card.holderName,
  };
}

/** Stores the card of an authorised payment when the request asked for it (tokenization). */
async function tokenize(ctx: StartContext, card: Card, payment: Payment): Promise<StoredPaymentMethod | undefined> {
  const { input } = ctx;
  if (payment.resultCode !== 'Authorised' || !input.storePaymentMethod || !input.shopperReference) return undefined;
  return storeCard(ctx.tx, ctx.now, ctx.vault, ctx.merchant, card, {
    shopperReference: input.shopperReference,
    shopperEmail: input.shopperEmail,
    recurringProcessingModel: input.recurringProcessingModel ?? 'CardOnFile',
    originalReference: payment.pspReference,
  });
}

const threeDSOf = (payment: Payment) => payment.methodState.threeDS as ThreeDSState | undefined;
const withThreeDS = (payment: Payment, state: ThreeDSState): Payment => ({ ...payment, methodState: { ...payment.methodState, threeDS: state } });

/** What the request says about 3D Secure: native or redirect, and authentication only. */
function authenticationChoice(ctx: StartContext): { native: boolean; authenticationOnly: boolean } {
  const data = ctx.input.authenticationData as { authenticationOnly?: unknown; threeDSRequestData?: { nativeThreeDS?: unknown } } | undefined;
  return { native: data?.threeDSRequestData?.nativeThreeDS === 'preferred', authenticationOnly: data?.authenticationOnly === true };
}

/**
 * An authentication that succeeded: the payment is authorised, or with authentication only it
 * waits as AuthenticationFinished until /payments/details (with its paymentData) authorises it.
 */
function authenticated(payment: Payment, state: ThreeDSState, now: Date): Payment {
  const done = withThreeDS(payment, state);
  if (state.authenticationOnly) return { ...done, resultCode: 'AuthenticationFinished', paymentData: newPaymentData(), updatedAt: now.toISOString() };
  return authorise(done, now);
}

/**
 * The first step of a card that needs authentication: the hosted 3D Secure page
 * (RedirectShopper) unless the request asks for native 3D Secure 2
 * (`authenticationData.threeDSRequestData.nativeThreeDS: preferred`); natively, the device
 * fingerprint first (IdentifyShopper) unless the card goes straight to the challenge
 * (ChallengeShopper). A frictionless card needs no redirect at all.
 */
function startAuthentication(ctx: StartContext, carded: Payment, flow: Exclude<ThreeDSState['flow'], 'none'>): Payment {
  const { native, authenticationOnly } = authenticationChoice(ctx);
  if (!native) {
    if (flow === 'frictionless') return authenticated(carded, resultState(newThreeDSState(flow, 'redirect', authenticationOnly), 'Y', ctx.now), ctx.now);
    return withThreeDS({ ...carded, resultCode: 'RedirectShopper' }, newThreeDSState(flow, 'redirect', authenticationOnly));
  }
  const state = newThreeDSState(flow, 'native', authenticationOnly);
  if (flow === 'challenge') return toChallenge(carded, state);
  return withThreeDS({ ...carded, resultCode: 'IdentifyShopper', paymentData: newPaymentData() }, state);
}

function toChallenge(payment: Payment, state: ThreeDSState): Payment {
  return withThreeDS(
    { ...payment, resultCode: 'ChallengeShopper', paymentData: newPaymentData() },
    { ...state, authorisationToken: newAuthorisationToken(payment.pspReference) },
  );
}

const resultState = (state: ThreeDSState, transStatus: string, now: Date): ThreeDSState => ({ ...state, result: resultOf(state, transStatus, now) });

/** The native 3D Secure 2 step /payments/details brings: the fingerprint, or the challenge's outcome. */
function completeNative(ctx: CompleteContext, payment: Payment, state: ThreeDSState, completion: Completion): Payment {
  const submission = readThreeDSSubmission(completion.details);
  if (!submission) {
    throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: 'details.threeDSResult' must be base64-encoded JSON" });
  }
  if (payment.resultCode === 'IdentifyShopper') {
    if (submission.threeDSCompInd === undefined) {
      throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: the fingerprint's 'threeDSResult' needs 'threeDSCompInd'" });
    }
    // Named by the action's paymentData or, after submitThreeDS2Fingerprint, by the token its answer carried.
    const named =
      (completion.paymentData !== undefined && completion.paymentData === payment.paymentData) ||
      sameToken(submission.authorisationToken, state.authorisationToken);
    if (!named)
      throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: the fingerprint's 'authorisationToken' is not this payment's" });
    return state.flow === 'frictionless' ? authenticated(payment, resultState(state, 'Y', ctx.now), ctx.now) : toChallenge(payment, state);
  }
  // The challenge: its token (or, for the older flow, the payment's paymentData) ties the result to the payment.
  const tied =
    sameToken(submission.authorisationToken, state.authorisationToken) ||
    (completion.paymentData !== undefined && completion.paymentData === payment.paymentData);
  if (!tied)
    throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: the challenge result's 'authorisationToken' is not this payment's" });
  // The hosted challenge page's answer wins over what the client reports.
  const transStatus = state.acsAnswer ?? submission.transStatus;
  if (transStatus === undefined)
    throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: the challenge's 'threeDSResult' needs 'transStatus'" });
  const decided = resultState(state, transStatus, ctx.now);
  return transStatus === 'Y' ? authenticated(payment, decided, ctx.now) : refuse(withThreeDS(payment, decided), NOT_AUTHENTICATED, ctx.now);
}

/** What the device fingerprint made of a payment: the challenge next, or (frictionless) the result that finishes it. */
export interface FingerprintStep {
  payment: Payment;
  /** Frictionless: the `threeDSResult` the client sends to /payments/details (or the session's) to finish the payment. */
  threeDSResult?: string;
}

/**
 * The device fingerprint as adyen-web submits it itself (client-side submitThreeDS2Fingerprint,
 * with the action's paymentData), `threeDSCompInd` being what its 3DS method iframe reported. A
 * card that is challenged goes on to the challenge, as /payments/details takes it there; a
 * frictionless one stays IdentifyShopper with an authorisation token, and the answer's
 * `threeDSResult` (carrying the token) authorises it through /payments/details, where Adyen's
 * platform authorises too. Either way the payment gets a new paymentData: the fingerprint is
 * taken once.
 */
export function takeFingerprint(payment: Payment, threeDSCompInd: string): FingerprintStep {
  const state = threeDSOf(payment);
  if (!state || state.mode !== 'native')
    throw new ApiError(ERR_INVALID_DETAILS, { message: 'Invalid payment method details: this payment takes no fingerprint' });
  if (payment.resultCode !== 'IdentifyShopper' || state.authorisationToken !== undefined) throw new ApiError(ERR_ALREADY_PROCESSED);
  if (state.flow !== 'frictionless') return { payment: toChallenge(payment, state) };
  const authorisationToken = newAuthorisationToken(payment.pspReference);
  return {
    payment: withThreeDS({ ...payment, paymentData: newPaymentData() }, { ...state, authorisationToken }),
    threeDSResult: encodeJson({ threeDSCompInd, authorisationToken }),
  };
}

/**
 * Cards (`scheme`) and Bancontact cards (`bcmc`): authorised or refused at once, or
 * authenticated first when the test card (or `executeThreeD`) asks for 3D Secure, by redirect
 * to the hosted page or natively with threeDS2 actions (three-ds2.ts).
 */
export const cardFlow: PaymentMethodFlow = {
  types: ['scheme', 'card', 'bcmc'],

  async start(ctx, pending) {
    const bcmc = ctx.input.paymentMethod.type === 'bcmc';
    const { card: read, token } = await cardOfRequest(ctx);
    // A Bancontact card is paid as Bancontact, whichever scheme's range its number is in.
    const card = bcmc ? { ...read, brand: 'bcmc' } : read;
    const carded: Payment = { ...withCard(pending, card), paymentMethodType: bcmc ? 'bcmc' : 'scheme', storedPaymentMethodId: token?.id ?? null };
    const decision = testDecisionOf(card, ctx.now, ctx.input.additionalData);
    if (decision) return { payment: decideByTest(carded, decision, ctx.now) };
    // A stored card was authenticated when it was stored.
    const flow = token ? 'none' : flowOfCard(card.number, { bcmc, executeThreeD: ctx.input.additionalData?.executeThreeD === 'true' });
    const { authenticationOnly } = authenticationChoice(ctx);
    const payment =
      flow !== 'none'
        ? startAuthentication(ctx, carded, flow)
        : authenticationOnly
          ? { ...carded, resultCode: 'AuthenticationNotRequired' as const, paymentData: newPaymentData() }
          : authorise(carded, ctx.now);
    const created = token ? undefined : await tokenize(ctx, card, payment);
    if (created) payment.storedPaymentMethodId = created.id;
    return created ? { payment, token: created } : { payment };
  },

  complete(ctx, payment, completion) {
    const state = threeDSOf(payment);
    if (completion.redirectOutcome !== undefined) {
      if (payment.detailsSubmitted || payment.resultCode !== 'RedirectShopper') throw new ApiError(ERR_ALREADY_PROCESSED);
      const submitted: Payment = { ...payment, detailsSubmitted: true };
      if (completion.redirectOutcome !== 'authorised') return Promise.resolve(refuse(submitted, NOT_AUTHENTICATED, ctx.now));
      return Promise.resolve(state ? authenticated(submitted, resultState(state, 'Y', ctx.now), ctx.now) : authorise(submitted, ctx.now));
    }
    // After authentication only: the payment data of that answer authorises the payment.
    if (payment.resultCode === 'AuthenticationFinished' || payment.resultCode === 'AuthenticationNotRequired') {
      return Promise.resolve(authorise({ ...payment, detailsSubmitted: true }, ctx.now));
    }
    if (isFinal(payment) || !state || state.mode !== 'native' || (payment.resultCode !== 'IdentifyShopper' && payment.resultCode !== 'ChallengeShopper')) {
      throw new ApiError(ERR_ALREADY_PROCESSED);
    }
    return Promise.resolve(completeNative(ctx, payment, state, completion));
  },

  settle: settleTestPending,

  action(payment, baseUrl) {
    const state = threeDSOf(payment);
    const paymentMethodType = payment.paymentMethodType;
    if (payment.resultCode === 'RedirectShopper')
      return { type: 'redirect', method: 'GET', url: `${baseUrl}/hosted/3ds/${payment.pspReference}`, paymentMethodType };
    if (!state || !payment.paymentData) return undefined;
    if (payment.resultCode === 'IdentifyShopper') {
      return { type: 'threeDS2', subtype: 'fingerprint', token: fingerprintToken(state, baseUrl), paymentData: payment.paymentData, paymentMethodType };
    }
    if (payment.resultCode === 'ChallengeShopper') {
      return {
        type: 'threeDS2',
        subtype: 'challenge',
        token: challengeToken(state, baseUrl, payment.pspReference),
        paymentData: payment.paymentData,
        ...(state.authorisationToken && { authorisationToken: state.authorisationToken }),
        paymentMethodType,
      };
    }
    return undefined;
  },

  additionalData(payment, createdToken) {
    if (!isFinal(payment)) return undefined;
    const raw = payment.methodState.refusalReasonRaw;
    return {
      cardSummary: payment.cardLastFour,
      cardBin: payment.cardBin,
      expiryDate: `${payment.expiryMonth}/${payment.expiryYear}`,
      paymentMethod: payment.cardBrand,
      refusalReasonRaw: payment.resultCode === 'Authorised' ? 'AUTHORISED' : typeof raw === 'string' ? raw : (payment.refusalReason ?? ''),
      ...(payment.authCode && payment.resultCode === 'Authorised' ? { authCode: payment.authCode } : {}),
      ...(payment.holderName ? { cardHolderName: payment.holderName } : {}),
      ...(threeDSOf(payment)?.result && { threeDAuthenticated: String(threeDSOf(payment)?.result?.transStatus === 'Y'), threeDOffered: 'true' }),
      ...(payment.storedPaymentMethodId && payment.shopperReference
        ? {
            'tokenization.storedPaymentMethodId': payment.storedPaymentMethodId,
            'tokenization.shopperReference': payment.shopperReference,
            'tokenization.store.operationType': createdToken ? 'created' : 'alreadyExisting',
          }
        : {}),
    };
  },

  responseMethod: (payment) => ({ type: payment.paymentMethodType, brand: payment.cardBrand }),

  responseFields(payment) {
    const result = threeDSOf(payment)?.result;
    const fields: NonNullable<ReturnType<NonNullable<PaymentMethodFlow['responseFields']>>> = {};
    if (result && threeDSOf(payment)?.mode === 'native') fields.threeDS2Result = result;
    if ((payment.resultCode === 'AuthenticationFinished' || payment.resultCode === 'AuthenticationNotRequired') && payment.paymentData) {
      fields.threeDSPaymentData = payment.paymentData;
      if (result) fields.threeDS2Result = result;
    }
    return Object.keys(fields).length > 0 ? fields : undefined;
  },
};
