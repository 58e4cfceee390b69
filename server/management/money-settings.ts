import type { operations } from '../../generated/management.js';
import { MANAGEMENT_BASE } from '../http/area.js';
import { baseUrlOf, pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerDeps, HandlerFactory, JsonBody } from '../http/types.js';
import type { PaymentMethodSetting, PayoutSetting, SplitConfigurationRecord } from '../store/types.js';
import { pageOf, paginated } from './pagination.js';
import * as payouts from './payouts.domain.js';
import * as methods from './payment-method-settings.domain.js';
import * as splits from './splits.domain.js';

const merchantOf = (req: Parameters<typeof pathParam>[0]) => pathParam(req, 'merchantId');
const base = (deps: HandlerDeps, req: Parameters<typeof baseUrlOf>[0]) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

// Payout settings.

export const toPayoutView = (s: PayoutSetting) => ({
  id: s.id,
  transferInstrumentId: s.transferInstrumentId,
  allowed: payouts.allowedOf(s),
  enabled: s.enabled,
  ...(s.enabledFromDate !== null && { enabledFromDate: s.enabledFromDate }),
  priority: s.priority,
  verificationStatus: s.verificationStatus,
});

/** GET /merchants/{merchantId}/payoutSettings */
export const listPayoutSettings: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const list = await deps.store.transaction((tx) => payouts.listPayoutSettings(tx, deps.clock.now(credential.companyId), credential, merchantOf(req)));
  res.json({ data: list.map(toPayoutView) });
};

/** POST /merchants/{merchantId}/payoutSettings */
export const addPayoutSetting: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['addPayoutSetting']>;
  res.json(toPayoutView(await deps.store.transaction((tx) => payouts.addPayoutSetting(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), body))));
};

/** GET /merchants/{merchantId}/payoutSettings/{payoutSettingsId} */
export const getPayoutSetting: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  res.json(toPayoutView(await deps.store.transaction((tx) => payouts.getPayoutSetting(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'payoutSettingsId')))));
};

/** PATCH /merchants/{merchantId}/payoutSettings/{payoutSettingsId} */
export const updatePayoutSetting: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['updatePayoutSetting']>;
  res.json(toPayoutView(await deps.store.transaction((tx) => payouts.updatePayoutSetting(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'payoutSettingsId'), body))));
};

/** DELETE /merchants/{merchantId}/payoutSettings/{payoutSettingsId} */
export const deletePayoutSetting: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  await deps.store.transaction((tx) => payouts.deletePayoutSetting(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'payoutSettingsId')));
  res.status(204).end();
};

// Payment method settings.

export const toMethodView = (s: PaymentMethodSetting) => ({
  id: s.id,
  type: s.type,
  enabled: s.enabled,
  allowed: s.verificationStatus === 'valid',
  verificationStatus: s.verificationStatus,
  countries: s.countries,
  currencies: s.currencies,
  customRoutingFlags: s.customRoutingFlags,
  ...(s.shopperInteraction !== null && { shopperInteraction: s.shopperInteraction }),
  ...(s.reference !== null && { reference: s.reference }),
  ...(s.businessLineId !== null && { businessLineId: s.businessLineId }),
  storeIds: s.storeIds,
  stores: s.storeIds,
  ...(s.storeIds.length === 1 && { store: s.storeIds[0] }),
  ...s.details,
});

/** GET /merchants/{merchantId}/paymentMethodSettings */
export const getAllPaymentMethods: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const merchantId = merchantOf(req);
  const page = pageOf(req.query);
  const filter = {
    ...(typeof req.query.storeId === 'string' && { storeId: req.query.storeId }),
    ...(typeof req.query.businessLineId === 'string' && { businessLineId: req.query.businessLineId }),
  };
  const { items, total } = await deps.store.read((tx) => methods.listSettings(tx, credential, merchantId, filter, page));
  res.json({ ...paginated(base(deps, req), `/merchants/${merchantId}/paymentMethodSettings`, page, items.map(toMethodView), total), typesWithErrors: [] });
};

/** POST /merchants/{merchantId}/paymentMethodSettings */
export const requestPaymentMethod: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['requestPaymentMethod']>;
  res.json(toMethodView(await deps.store.transaction((tx) => methods.requestPaymentMethod(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), body))));
};

/** GET /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId} */
export const getPaymentMethodDetails: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  res.json(toMethodView(await deps.store.read((tx) => methods.getSetting(tx, credential, merchantOf(req), pathParam(req, 'paymentMethodId')))));
};

/** PATCH /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId} */
export const updatePaymentMethod: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['updatePaymentMethod']>;
  res.json(toMethodView(await deps.store.transaction((tx) => methods.updatePaymentMethod(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'paymentMethodId'), body))));
};

/** POST /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/addApplePayDomains */
export const addApplePayDomain: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['addApplePayDomain']>;
  await deps.store.transaction((tx) => methods.addApplePayDomains(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'paymentMethodId'), body.domains));
  res.status(204).end();
};

/** GET /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/getApplePayDomains */
export const getApplePayDomains: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  res.json({ domains: await deps.store.read((tx) => methods.applePayDomains(tx, credential, merchantOf(req), pathParam(req, 'paymentMethodId'))) });
};

// Split configurations.

export const toSplitView = (c: SplitConfigurationRecord) => ({ splitConfigurationId: c.id, description: c.description, rules: c.rules });

const splitHandler =
  (work: (deps: HandlerDeps, req: Parameters<typeof pathParam>[0], credential: ReturnType<typeof callerOf>['credential']) => Promise<SplitConfigurationRecord>): HandlerFactory =>
  (deps) =>
  async (req, res) => {
    res.json(toSplitView(await work(deps, req, callerOf(res).credential)));
  };

/** GET /merchants/{merchantId}/splitConfigurations */
export const listSplitConfigurations: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  res.json({ data: (await deps.store.read((tx) => splits.listProfiles(tx, credential, merchantOf(req)))).map(toSplitView) });
};

export const createSplitConfiguration = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) => splits.createProfile(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), req.body as JsonBody<operations['createSplitConfiguration']>)),
);
export const getSplitConfiguration = splitHandler((deps, req, credential) =>
  deps.store.read((tx) => splits.getProfile(tx, credential, merchantOf(req), pathParam(req, 'splitConfigurationId'))),
);
export const updateSplitConfigurationDescription = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) =>
    splits.renameProfile(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'splitConfigurationId'), (req.body as JsonBody<operations['updateSplitConfigurationDescription']>).description),
  ),
);
export const deleteSplitConfiguration = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) => splits.deleteProfile(tx, credential, merchantOf(req), pathParam(req, 'splitConfigurationId'))),
);
export const createRule = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) => splits.createRule(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'splitConfigurationId'), req.body as JsonBody<operations['createRule']>)),
);
export const updateSplitConditions = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) =>
    splits.updateConditions(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'splitConfigurationId'), pathParam(req, 'ruleId'), req.body as JsonBody<operations['updateSplitConditions']>),
  ),
);
export const deleteSplitConfigurationRule = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) => splits.deleteRule(tx, deps.clock.now(credential.companyId), credential, merchantOf(req), pathParam(req, 'splitConfigurationId'), pathParam(req, 'ruleId'))),
);
export const updateSplitLogic = splitHandler((deps, req, credential) =>
  deps.store.transaction((tx) =>
    splits.updateLogic(
      tx,
      deps.clock.now(credential.companyId),
      credential,
      merchantOf(req),
      pathParam(req, 'splitConfigurationId'),
      pathParam(req, 'ruleId'),
      pathParam(req, 'splitLogicId'),
      req.body as JsonBody<operations['updateSplitLogic']>,
    ),
  ),
);
