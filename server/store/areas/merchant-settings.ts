import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import type { PaymentMethodSetting, PayoutSetting, SplitConfigurationRecord } from '../records/merchant-settings.js';
import type { PaymentMethodSettings, PayoutSettings, SplitConfigurations } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const settingFromRow = (r: Selectable<PaymentMethodSettings>): PaymentMethodSetting => ({
  ...r,
  enabled: flag(r.enabled),
  countries: parsed<string[]>(r.countries),
  currencies: parsed<string[]>(r.currencies),
  customRoutingFlags: parsed<string[]>(r.customRoutingFlags),
  storeIds: parsed<string[]>(r.storeIds),
  channels: parsed<string[]>(r.channels),
  details: parsed<Record<string, unknown>>(r.details),
  verificationStatus: r.verificationStatus as PaymentMethodSetting['verificationStatus'],
});

const settingToRow = (s: PaymentMethodSetting): Insertable<PaymentMethodSettings> => ({
  id: s.id,
  merchantId: s.merchantId,
  type: s.type,
  enabled: s.enabled,
  countries: jsonText(s.countries),
  currencies: jsonText(s.currencies),
  customRoutingFlags: jsonText(s.customRoutingFlags),
  storeIds: jsonText(s.storeIds),
  channels: jsonText(s.channels),
  shopperInteraction: s.shopperInteraction,
  reference: s.reference,
  minAmount: s.minAmount,
  maxAmount: s.maxAmount,
  details: jsonText(s.details),
  businessLineId: s.businessLineId,
  verificationStatus: s.verificationStatus,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const payoutFromRow = (r: Selectable<PayoutSettings>): PayoutSetting => ({
  ...r,
  enabled: flag(r.enabled),
  priority: r.priority as PayoutSetting['priority'],
  verificationStatus: r.verificationStatus as PayoutSetting['verificationStatus'],
});

const payoutToRow = (p: PayoutSetting): Insertable<PayoutSettings> => ({
  id: p.id,
  merchantId: p.merchantId,
  transferInstrumentId: p.transferInstrumentId,
  enabled: p.enabled,
  enabledFromDate: p.enabledFromDate,
  priority: p.priority,
  verificationStatus: p.verificationStatus,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const splitFromRow = (r: Selectable<SplitConfigurations>): SplitConfigurationRecord => ({
  id: r.id,
  merchantId: r.merchantId,
  description: r.description,
  rules: parsed<SplitConfigurationRecord['rules']>(r.rules),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const splitToRow = (c: SplitConfigurationRecord): Insertable<SplitConfigurations> => ({
  id: c.id,
  merchantId: c.merchantId,
  description: c.description,
  rules: jsonText(c.rules),
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** Payment method settings of merchant accounts (which methods they accept, where and how). */
export function paymentMethodSettingsStore(db: Db) {
  const { q } = db;
  const settings = () => q.selectFrom('paymentMethodSettings').selectAll();
  return {
    insert: async (setting: PaymentMethodSetting): Promise<void> => void (await q.insertInto('paymentMethodSettings').values(settingToRow(setting)).execute()),
    get: async (id: string): Promise<PaymentMethodSetting | undefined> => {
      const row = await settings().where('id', '=', id).executeTakeFirst();
      return row && settingFromRow(row);
    },
    /** The merchant account's settings in the order they were made. */
    list: async (merchantId: string): Promise<PaymentMethodSetting[]> =>
      (await settings().where('merchantId', '=', merchantId).orderBy('createdAt').orderBy('id').execute()).map(settingFromRow),
    /** Writes what can change of a setting; its id, merchant account, type and creation time stay. */
    update: async (setting: PaymentMethodSetting): Promise<void> => {
      const { id, merchantId: _merchant, type: _type, createdAt: _created, ...changes } = settingToRow(setting);
      await q.updateTable('paymentMethodSettings').set(changes).where('id', '=', id).execute();
    },
  };
}

/** Payout settings of merchant accounts (the transfer instruments their funds are paid out to). */
export function payoutsStore(db: Db) {
  const { q } = db;
  const payouts = () => q.selectFrom('payoutSettings').selectAll();
  return {
    insert: async (setting: PayoutSetting): Promise<void> => void (await q.insertInto('payoutSettings').values(payoutToRow(setting)).execute()),
    get: async (id: string): Promise<PayoutSetting | undefined> => {
      const row = await payouts().where('id', '=', id).executeTakeFirst();
      return row && payoutFromRow(row);
    },
    /** The merchant account's payout settings in the order they were made. */
    list: async (merchantId: string): Promise<PayoutSetting[]> =>
      (await payouts().where('merchantId', '=', merchantId).orderBy('createdAt').orderBy('id').execute()).map(payoutFromRow),
    /** Writes what can change of a payout setting: whether (and from when) it is enabled. */
    update: async (setting: PayoutSetting): Promise<void> => {
      await q
        .updateTable('payoutSettings')
        .set({ enabled: setting.enabled, enabledFromDate: setting.enabledFromDate, updatedAt: setting.updatedAt })
        .where('id', '=', setting.id)
        .execute();
    },
    delete: async (id: string): Promise<void> => void (await q.deleteFrom('payoutSettings').where('id', '=', id).execute()),
  };
}

/** Split configuration profiles of merchant accounts (rules read and written whole). */
export function splitsStore(db: Db) {
  const { q } = db;
  const splits = () => q.selectFrom('splitConfigurations').selectAll();
  return {
    insert: async (config: SplitConfigurationRecord): Promise<void> => void (await q.insertInto('splitConfigurations').values(splitToRow(config)).execute()),
    get: async (id: string): Promise<SplitConfigurationRecord | undefined> => {
      const row = await splits().where('id', '=', id).executeTakeFirst();
      return row && splitFromRow(row);
    },
    /** The merchant account's split configurations in the order they were made. */
    list: async (merchantId: string): Promise<SplitConfigurationRecord[]> =>
      (await splits().where('merchantId', '=', merchantId).orderBy('createdAt').orderBy('id').execute()).map(splitFromRow),
    /** Writes what can change of a configuration: its description and rules. */
    update: async (config: SplitConfigurationRecord): Promise<void> => {
      const { description, rules, updatedAt } = splitToRow(config);
      await q.updateTable('splitConfigurations').set({ description, rules, updatedAt }).where('id', '=', config.id).execute();
    },
    delete: async (id: string): Promise<void> => void (await q.deleteFrom('splitConfigurations').where('id', '=', id).execute()),
  };
}

export type PaymentMethodSettingsStore = ReturnType<typeof paymentMethodSettingsStore>;
export type PayoutsStore = ReturnType<typeof payoutsStore>;
export type SplitsStore = ReturnType<typeof splitsStore>;
