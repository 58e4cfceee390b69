import { command, operation, outboundCommand } from '../../kernel/http/handler.js';
import type { StoredPaymentMethod } from '../../store/types.js';
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
export const storedPaymentMethods = command('storedPaymentMethods')(async ({ tx, body, caller }, deps) =>
  toTokenView(await createToken(tx, deps.clock.now(caller.credential.companyId), deps.vault, caller.credential, body)),
);

/** GET /storedPaymentMethods */
export const getTokensForStoredPaymentDetails = operation('getTokensForStoredPaymentDetails')(async ({ query, caller: { credential } }, deps) => {
  const { merchantAccount, shopperReference } = query;
  const tokens = await deps.store.read((tx) => listTokens(tx, credential, merchantAccount, shopperReference));
  return { merchantAccount, shopperReference, storedPaymentMethods: tokens.map(toTokenView) };
});

/** DELETE /storedPaymentMethods/{storedPaymentMethodId} */
export const deleteTokenForStoredPaymentDetails = operation('deleteTokenForStoredPaymentDetails')(async ({ path, query, caller: { credential } }, deps) => {
  await deps.store.transaction((tx) => deleteToken(tx, credential, query.merchantAccount, query.shopperReference, path.storedPaymentMethodId));
});

/** POST /forward: prepared in a transaction, sent outside it. */
export const forward = outboundCommand('forward')(
  async ({ tx, body, caller, requestId }, deps) => ({
    ...(await prepareForward(tx, deps.clock.now(caller.credential.companyId), deps.vault, caller.credential, body)),
    requestId,
  }),
  async (prepared, { config, logger }) => {
    const response = await performForward(prepared, {
      allowList: config.forwardAllowList,
      allowPrivate: config.forwardAllowPrivateNetworks,
      timeoutMs: config.forwardTimeoutMs,
      maxResponseBytes: config.forwardMaxResponseBytes,
      log: { logger, requestId: prepared.requestId },
    });
    return {
      pspReference: prepared.pspReference,
      ...(prepared.storedPaymentMethodId && { storedPaymentMethodId: prepared.storedPaymentMethodId }),
      ...(prepared.merchantReference && { merchantReference: prepared.merchantReference }),
      response,
    };
  },
);
