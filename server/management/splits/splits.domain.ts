import { randomBytes } from 'node:crypto';
import { ApiError, ERR_FIELD_INVALID, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { Credential, SplitConfigurationRecord } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';

type Rule = SplitConfigurationRecord['rules'][number];
type RuleInput = Record<string, unknown> & {
  currency: string;
  fundingSource: string;
  paymentMethod: string;
  shopperInteraction: string;
  cardRegion?: string;
  splitLogic: Record<string, unknown>;
};
type Conditions = Pick<RuleInput, 'currency' | 'fundingSource' | 'paymentMethod' | 'shopperInteraction' | 'cardRegion'>;

const id = (prefix: string) => `${prefix}${randomBytes(14).toString('hex').toUpperCase().slice(0, 26)}`;
const conditionsKey = (r: Conditions) => [r.currency, r.fundingSource, r.paymentMethod, r.shopperInteraction, r.cardRegion ?? 'ANY'].join('|');
const invalid = (name: string, message: string) =>
  new ApiError(ERR_FIELD_INVALID, { message: `Invalid field '${name}': ${message}`, invalidFields: [{ name, value: '', message }] });

function newRule(input: RuleInput): Rule {
  return { ...input, ruleId: id('SCRL'), splitLogic: { ...input.splitLogic, splitLogicId: id('SCLG') } };
}

/** No two rules of a profile may match the same transactions. */
function assertDistinct(rules: Array<Conditions>, field = 'rules'): void {
  const seen = new Set<string>();
  for (const rule of rules) {
    const key = conditionsKey(rule);
    if (seen.has(key)) throw invalid(field, 'two rules have the same conditions');
    seen.add(key);
  }
}

async function profileOf(tx: Tx, credential: Credential, merchantId: string, configId: string): Promise<SplitConfigurationRecord> {
  await visibleMerchant(tx, credential, merchantId);
  const config = await tx.splits.get(configId);
  if (!config || config.merchantId !== merchantId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Split configuration ${configId} not found` });
  return config;
}

function ruleIndex(config: SplitConfigurationRecord, ruleId: string): number {
  const index = config.rules.findIndex((r) => r.ruleId === ruleId);
  if (index < 0) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Rule ${ruleId} not found` });
  return index;
}

async function save(tx: Tx, now: Date, config: SplitConfigurationRecord): Promise<SplitConfigurationRecord> {
  const saved = { ...config, updatedAt: now.toISOString() };
  await tx.splits.update(saved);
  return saved;
}

export async function listProfiles(tx: Tx, credential: Credential, merchantId: string) {
  await visibleMerchant(tx, credential, merchantId);
  return tx.splits.list(merchantId);
}

export const getProfile = profileOf;

export async function createProfile(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  input: { description: string; rules: RuleInput[] },
): Promise<SplitConfigurationRecord> {
  const merchant = await visibleMerchant(tx, credential, merchantId);
  assertDistinct(input.rules);
  const config: SplitConfigurationRecord = {
    id: id('SCNF'),
    merchantId: merchant.id,
    description: input.description,
    rules: input.rules.map(newRule),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.splits.insert(config);
  return config;
}

export async function renameProfile(tx: Tx, now: Date, credential: Credential, merchantId: string, configId: string, description: string) {
  return save(tx, now, { ...(await profileOf(tx, credential, merchantId, configId)), description });
}

export async function deleteProfile(tx: Tx, credential: Credential, merchantId: string, configId: string): Promise<SplitConfigurationRecord> {
  const config = await profileOf(tx, credential, merchantId, configId);
  await tx.splits.delete(config.id);
  return config;
}

export async function createRule(tx: Tx, now: Date, credential: Credential, merchantId: string, configId: string, input: RuleInput) {
  const config = await profileOf(tx, credential, merchantId, configId);
  assertDistinct([...config.rules, input], 'conditions');
  return save(tx, now, { ...config, rules: [...config.rules, newRule(input)] });
}

export async function updateConditions(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  configId: string,
  ruleId: string,
  conditions: Conditions,
) {
  const config = await profileOf(tx, credential, merchantId, configId);
  const index = ruleIndex(config, ruleId);
  const rules = config.rules.map((r, i) => (i === index ? { ...r, ...conditions } : r));
  assertDistinct(rules, 'conditions');
  return save(tx, now, { ...config, rules });
}

export async function deleteRule(tx: Tx, now: Date, credential: Credential, merchantId: string, configId: string, ruleId: string) {
  const config = await profileOf(tx, credential, merchantId, configId);
  const index = ruleIndex(config, ruleId);
  if (config.rules.length === 1) throw invalid('ruleId', 'the last rule of a profile cannot be deleted; delete the profile instead');
  return save(tx, now, { ...config, rules: config.rules.filter((_, i) => i !== index) });
}

/** Replaces the split logic of a rule; booking fields not given are cleared. */
export async function updateLogic(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  configId: string,
  ruleId: string,
  logicId: string,
  logic: Record<string, unknown>,
) {
  const config = await profileOf(tx, credential, merchantId, configId);
  const index = ruleIndex(config, ruleId);
  if (config.rules[index]!.splitLogic.splitLogicId !== logicId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Split logic ${logicId} not found` });
  const rules = config.rules.map((r, i) => (i === index ? { ...r, splitLogic: { ...logic, splitLogicId: logicId } } : r));
  return save(tx, now, { ...config, rules });
}
