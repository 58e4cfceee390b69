/**
 * The session calls of the client-side area (spec/clientside): what Adyen's web library calls
 * with a client key. Payments and their next steps are those of the checkout area's session
 * operations; the answers keep only the fields the library reads, as it warns about any other.
 */
import { command } from '../../kernel/http/handler.js';
import { storedMethodsAnswer } from '../payment-methods/payment-methods.js';
import {
  cancelSessionOrder as cancelOrderOfSession,
  createSessionOrder as createOrderOfSession,
  sessionGiftCardBalance,
  setUpSession,
} from './client-sessions.domain.js';
import { paySession, submitSessionDetails } from './sessions.js';

/** The checkout answer less what the library must not be given (it warns about `pspReference`, and `refusalReason` is not its). */
const forTheLibrary = <A extends { pspReference?: string; refusalReason?: string }>({ pspReference: _p, refusalReason: _r, ...kept }: A) => kept;

/** POST /v1/sessions/{sessionId}/setup */
export const setupSession = command('setupSession')(async ({ tx, body, path, caller: { credential } }, deps) => {
  const setup = await setUpSession(tx, deps.clock.now(credential.companyId), credential, path.sessionId, body.sessionData, (t) => deps.redirects.mac(t));
  const { session, terms } = setup;
  return {
    id: session.id,
    sessionData: session.sessionData,
    amount: terms.amount,
    ...(terms.countryCode && { countryCode: terms.countryCode }),
    expiresAt: session.expiresAt,
    paymentMethods: {
      paymentMethods: setup.paymentMethods,
      ...(setup.storedPaymentMethods && { storedPaymentMethods: storedMethodsAnswer(setup.storedPaymentMethods) }),
    },
    returnUrl: terms.returnUrl,
    configuration: { enableStoreDetails: terms.storePaymentMethodMode === 'askForConsent' },
    // The library's own default; it then needs no translations file.
    shopperLocale: terms.shopperLocale ?? 'en-US',
  };
});

/** POST /v1/sessions/{sessionId}/payments */
export const makeSessionPayment = command('makeSessionPayment')(async (call, deps) => forTheLibrary(await paySession(call, deps)));

/** POST /v1/sessions/{sessionId}/paymentDetails */
export const submitSessionPaymentDetails = command('submitSessionPaymentDetails')(async (call, deps) => forTheLibrary(await submitSessionDetails(call, deps)));

/** POST /v1/sessions/{sessionId}/paymentMethodBalance */
export const checkSessionPaymentMethodBalance = command('checkSessionPaymentMethodBalance')(async ({ tx, body, path, caller: { credential } }, deps) => {
  const { session, balance } = await sessionGiftCardBalance(tx, deps.clock.now(credential.companyId), credential, path.sessionId, body, (t) =>
    deps.redirects.mac(t),
  );
  return { sessionData: session.sessionData, ...(balance && { balance }) };
});

/** POST /v1/sessions/{sessionId}/orders */
export const createSessionOrder = command('createSessionOrder')(async ({ tx, body, path, caller: { credential } }, deps) => {
  const { session, order } = await createOrderOfSession(tx, deps.clock.now(credential.companyId), credential, path.sessionId, body.sessionData, (t) =>
    deps.redirects.mac(t),
  );
  return { sessionData: session.sessionData, orderData: order.orderData, pspReference: order.pspReference };
});

/** POST /v1/sessions/{sessionId}/orders/cancel */
export const cancelSessionOrder = command('cancelSessionOrder')(async ({ tx, body, path, caller: { credential } }, deps) => {
  const session = await cancelOrderOfSession(tx, deps.clock.now(credential.companyId), credential, path.sessionId, body, (t) => deps.redirects.mac(t));
  return { sessionData: session.sessionData };
});
