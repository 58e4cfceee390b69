import type { Request } from 'express';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { PaymentMethodSetting } from '../../store/types.js';
import { pageOf, paginated } from '../pagination.js';
import * as methods from './payment-method-settings.domain.js';
import { maskSecrets } from './per-type.js';

const base = (deps: HandlerDeps, req: Request) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

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
  ...maskSecrets(s.details),
});

/** GET /merchants/{merchantId}/paymentMethodSettings */
export const getAllPaymentMethods = operation('getAllPaymentMethods')(async ({ path: { merchantId }, query, caller: { credential }, req }, deps) => {
  const page = pageOf(query);
  const filter = {
    ...(query.storeId !== undefined && { storeId: query.storeId }),
    ...(query.businessLineId !== undefined && { businessLineId: query.businessLineId }),
  };
  const { items, total } = await deps.store.read((tx) => methods.listSettings(tx, credential, merchantId, filter, page));
  return { ...paginated(base(deps, req), `/merchants/${merchantId}/paymentMethodSettings`, page, items.map(toMethodView), total), typesWithErrors: [] };
});

/** POST /merchants/{merchantId}/paymentMethodSettings */
export const requestPaymentMethod = operation('requestPaymentMethod')(async ({ body, path, caller: { credential } }, deps) =>
  toMethodView(
    await deps.store.transaction((tx) => methods.requestPaymentMethod(tx, deps.clock.now(credential.companyId), deps.vault, credential, path.merchantId, body)),
  ),
);

/** GET /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId} */
export const getPaymentMethodDetails = operation('getPaymentMethodDetails')(async ({ path, caller: { credential } }, deps) =>
  toMethodView(await deps.store.read((tx) => methods.getSetting(tx, credential, path.merchantId, path.paymentMethodId))),
);

/** PATCH /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId} */
export const updatePaymentMethod = operation('updatePaymentMethod')(async ({ body, path, caller: { credential } }, deps) =>
  toMethodView(
    await deps.store.transaction((tx) =>
      methods.updatePaymentMethod(tx, deps.clock.now(credential.companyId), deps.vault, credential, path.merchantId, path.paymentMethodId, body),
    ),
  ),
);

/** POST /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/addApplePayDomains */
export const addApplePayDomain = operation('addApplePayDomain')(async ({ body, path, caller: { credential } }, deps) => {
  await deps.store.transaction((tx) =>
    methods.addApplePayDomains(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.paymentMethodId, body.domains),
  );
});

/** GET /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/getApplePayDomains */
export const getApplePayDomains = operation('getApplePayDomains')(async ({ path, caller: { credential } }, deps) => ({
  domains: await deps.store.read((tx) => methods.applePayDomains(tx, credential, path.merchantId, path.paymentMethodId)),
}));

// Split configurations.
