import type { operations } from '../../generated/checkout.js';
import { pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import type { StoredPaymentMethod } from '../store/types.js';
import { performForward, prepareForward } from './forward.domain.js';
import { createToken, deleteToken, listTokens } from './tokens.domain.js';

/** The wire form of a token: last four digits, never the number. */
export const toTokenView = (t: StoredPaymentMethod) => ({
  id: t.id,
  type: 'scheme',
  brand: t.brand,
  cardBin: t.cardBin,
  lastFour: t.lastFour,
  expiryMonth: t.expiryMonth,
  expiryYear: t.expiryYear,
  ...(t.holderName && { holderName: t.holderName }),
  shopperReference: t.shopperReference,
  ...(t.shopperEmail && { shopperEmail: t.shopperEmail }),
  supportedRecurringProcessingModels: [t.recurringProcessingModel],
});

/** POST /storedPaymentMethods */
export const storedPaymentMethods: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['storedPaymentMethods']>;
    return toTokenView(await createToken(tx, deps.clock.now(caller.credential.companyId), deps.vault, caller.credential, body));
  });

/** GET /storedPaymentMethods */
export const getTokensForStoredPaymentDetails: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const merchantAccount = String(req.query.merchantAccount);
  const shopperReference = String(req.query.shopperReference);
  const tokens = await deps.store.read((tx) => listTokens(tx, credential, merchantAccount, shopperReference));
  res.json({ merchantAccount, shopperReference, storedPaymentMethods: tokens.map(toTokenView) });
};

/** DELETE /storedPaymentMethods/{storedPaymentMethodId} */
export const deleteTokenForStoredPaymentDetails: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const id = pathParam(req, 'storedPaymentMethodId');
  await deps.store.transaction((tx) => deleteToken(tx, credential, String(req.query.merchantAccount), String(req.query.shopperReference), id));
  res.status(204).end();
};

/** POST /forward: prepared in a transaction, sent outside it. */
export const forward: HandlerFactory = (deps) =>
  deps.commands.effectHandler(
    200,
    (tx, caller, req) => prepareForward(tx, deps.clock.now(caller.credential.companyId), deps.vault, caller.credential, req.body as JsonBody<operations['forward']>),
    async (prepared) => {
      const { config } = deps;
      const response = await performForward(prepared, {
        allowList: config.forwardAllowList,
        allowPrivate: config.forwardAllowPrivateNetworks,
        timeoutMs: config.forwardTimeoutMs,
        maxResponseBytes: config.forwardMaxResponseBytes,
      });
      return {
        pspReference: prepared.pspReference,
        ...(prepared.storedPaymentMethodId && { storedPaymentMethodId: prepared.storedPaymentMethodId }),
        ...(prepared.merchantReference && { merchantReference: prepared.merchantReference }),
        response,
      };
    },
  );
