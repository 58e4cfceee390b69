import type { components } from '../../../generated/management.js';
import { operation } from '../../kernel/http/handler.js';
import type { SplitConfigurationRecord } from '../../store/types.js';
import * as splits from './splits.domain.js';

type SplitRule = components['schemas']['SplitConfigurationRule'];
type SplitLogic = components['schemas']['SplitConfigurationLogic'];
type StoredRule = SplitConfigurationRecord['rules'][number];

/**
 * The store keeps split rules as loose records (they were validated against the spec when they
 * came in): the wire form is read back field by field, each enum checked against the spec's values.
 */
function oneOf<const T extends string>(values: readonly T[], field: string, value: unknown): T {
  const found = values.find((v) => v === value);
  if (found === undefined) throw new Error(`stored split rule: ${field} ${String(value)} is not one of the spec's values`);
  return found;
}
const optionalOneOf = <const T extends string>(values: readonly T[], field: string, value: unknown): T | undefined =>
  value === undefined ? undefined : oneOf(values, field, value);
const optionalNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);
const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);
const objectOf = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value)) : {});

const DEDUCT = ['deductFromLiableAccount', 'deductFromOneBalanceAccount'] as const;
const DEDUCT_OR_SPLIT = [...DEDUCT, 'deductAccordingToSplitRatio'] as const;
const ADD = ['addToLiableAccount', 'addToOneBalanceAccount'] as const;

function toSplitLogicView(l: StoredRule['splitLogic']): SplitLogic {
  const commission = objectOf(l.commission);
  const additional = l.additionalCommission === undefined ? undefined : objectOf(l.additionalCommission);
  return {
    splitLogicId: l.splitLogicId,
    commission: { fixedAmount: optionalNumber(commission.fixedAmount), variablePercentage: optionalNumber(commission.variablePercentage) },
    additionalCommission: additional && {
      balanceAccountId: optionalString(additional.balanceAccountId),
      fixedAmount: optionalNumber(additional.fixedAmount),
      variablePercentage: optionalNumber(additional.variablePercentage),
    },
    acquiringFees: optionalOneOf(DEDUCT, 'acquiringFees', l.acquiringFees),
    adyenCommission: optionalOneOf(DEDUCT, 'adyenCommission', l.adyenCommission),
    adyenFees: optionalOneOf(DEDUCT, 'adyenFees', l.adyenFees),
    adyenMarkup: optionalOneOf(DEDUCT, 'adyenMarkup', l.adyenMarkup),
    chargeback: optionalOneOf(DEDUCT_OR_SPLIT, 'chargeback', l.chargeback),
    chargebackCostAllocation: optionalOneOf(DEDUCT, 'chargebackCostAllocation', l.chargebackCostAllocation),
    interchange: optionalOneOf(DEDUCT, 'interchange', l.interchange),
    paymentFee: optionalOneOf(DEDUCT, 'paymentFee', l.paymentFee),
    refund: optionalOneOf(DEDUCT_OR_SPLIT, 'refund', l.refund),
    refundCostAllocation: optionalOneOf(DEDUCT, 'refundCostAllocation', l.refundCostAllocation),
    remainder: optionalOneOf(ADD, 'remainder', l.remainder),
    schemeFee: optionalOneOf(DEDUCT, 'schemeFee', l.schemeFee),
    surcharge: optionalOneOf(ADD, 'surcharge', l.surcharge),
    tip: optionalOneOf(ADD, 'tip', l.tip),
  };
}

const toSplitRuleView = (r: StoredRule): SplitRule => ({
  ruleId: r.ruleId,
  currency: r.currency,
  fundingSource: oneOf(['charged', 'credit', 'debit', 'deferred_debit', 'prepaid', 'ANY'], 'fundingSource', r.fundingSource),
  paymentMethod: r.paymentMethod,
  shopperInteraction: oneOf(['Ecommerce', 'ContAuth', 'Moto', 'POS', 'ANY'], 'shopperInteraction', r.shopperInteraction),
  cardRegion: optionalOneOf(['international', 'intraEEA', 'intraRegional', 'interRegional', 'domestic', 'ANY'], 'cardRegion', r.cardRegion),
  splitLogic: toSplitLogicView(r.splitLogic),
});

export const toSplitView = (c: SplitConfigurationRecord) => ({ splitConfigurationId: c.id, description: c.description, rules: c.rules.map(toSplitRuleView) });

/** GET /merchants/{merchantId}/splitConfigurations */
export const listSplitConfigurations = operation('listSplitConfigurations')(async ({ path, caller: { credential } }, deps) => ({
  data: (await deps.store.read((tx) => splits.listProfiles(tx, credential, path.merchantId))).map(toSplitView),
}));

/** POST /merchants/{merchantId}/splitConfigurations */
export const createSplitConfiguration = operation('createSplitConfiguration')(async ({ body, path, caller: { credential } }, deps) =>
  toSplitView(await deps.store.transaction((tx) => splits.createProfile(tx, deps.clock.now(credential.companyId), credential, path.merchantId, body))),
);

/** GET /merchants/{merchantId}/splitConfigurations/{splitConfigurationId} */
export const getSplitConfiguration = operation('getSplitConfiguration')(async ({ path, caller: { credential } }, deps) =>
  toSplitView(await deps.store.read((tx) => splits.getProfile(tx, credential, path.merchantId, path.splitConfigurationId))),
);

/** PATCH /merchants/{merchantId}/splitConfigurations/{splitConfigurationId} */
export const updateSplitConfigurationDescription = operation('updateSplitConfigurationDescription')(async ({ body, path, caller: { credential } }, deps) =>
  toSplitView(
    await deps.store.transaction((tx) =>
      splits.renameProfile(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.splitConfigurationId, body.description),
    ),
  ),
);

/** DELETE /merchants/{merchantId}/splitConfigurations/{splitConfigurationId} */
export const deleteSplitConfiguration = operation('deleteSplitConfiguration')(async ({ path, caller: { credential } }, deps) =>
  toSplitView(await deps.store.transaction((tx) => splits.deleteProfile(tx, credential, path.merchantId, path.splitConfigurationId))),
);

/** POST /merchants/{merchantId}/splitConfigurations/{splitConfigurationId} */
export const createRule = operation('createRule')(async ({ body, path, caller: { credential } }, deps) =>
  toSplitView(
    await deps.store.transaction((tx) =>
      splits.createRule(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.splitConfigurationId, body),
    ),
  ),
);

/** PATCH /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId} */
export const updateSplitConditions = operation('updateSplitConditions')(async ({ body, path, caller: { credential } }, deps) =>
  toSplitView(
    await deps.store.transaction((tx) =>
      splits.updateConditions(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.splitConfigurationId, path.ruleId, body),
    ),
  ),
);

/** DELETE /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId} */
export const deleteSplitConfigurationRule = operation('deleteSplitConfigurationRule')(async ({ path, caller: { credential } }, deps) =>
  toSplitView(
    await deps.store.transaction((tx) =>
      splits.deleteRule(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.splitConfigurationId, path.ruleId),
    ),
  ),
);

/** PATCH /merchants/{merchantId}/splitConfigurations/{splitConfigurationId}/rules/{ruleId}/splitLogic/{splitLogicId} */
export const updateSplitLogic = operation('updateSplitLogic')(async ({ body, path, caller: { credential } }, deps) =>
  toSplitView(
    await deps.store.transaction((tx) =>
      splits.updateLogic(
        tx,
        deps.clock.now(credential.companyId),
        credential,
        path.merchantId,
        path.splitConfigurationId,
        path.ruleId,
        path.splitLogicId,
        body,
      ),
    ),
  ),
);
