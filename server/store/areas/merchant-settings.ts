import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import type { PaymentMethodSetting, PayoutSetting, SplitConfigurationRecord } from '../records/merchant-settings.js';
import type { PaymentMethodSettings, PayoutSettings, SplitConfigurations } from '../schema.generated.js';

const settingFromRow = (r: Selectable<PaymentMethodSettings>): PaymentMethodSetting => ({
  id: r.id,
  merchantId: r.merchant_id,
  type: r.type,
  enabled: flag(r.enabled),
  countries: parsed<string[]>(r.countries),
  currencies: parsed<string[]>(r.currencies),
  customRoutingFlags: parsed<string[]>(r.custom_routing_flags),
  storeIds: parsed<string[]>(r.store_ids),
  channels: parsed<string[]>(r.channels),
  shopperInteraction: r.shopper_interaction,
  reference: r.reference,
  minAmount: r.min_amount,
  maxAmount: r.max_amount,
  details: parsed<Record<string, unknown>>(r.details),
  businessLineId: r.business_line_id,
  verificationStatus: r.verification_status as PaymentMethodSetting['verificationStatus'],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const settingToRow = (s: PaymentMethodSetting): Insertable<PaymentMethodSettings> => ({
  id: s.id,
  merchant_id: s.merchantId,
  type: s.type,
  enabled: s.enabled,
  countries: jsonText(s.countries),
  currencies: jsonText(s.currencies),
  custom_routing_flags: jsonText(s.customRoutingFlags),
  store_ids: jsonText(s.storeIds),
  channels: jsonText(s.channels),
  shopper_interaction: s.shopperInteraction,
  reference: s.reference,
  min_amount: s.minAmount,
  max_amount: s.maxAmount,
  details: jsonText(s.details),
  business_line_id: s.businessLineId,
  verification_status: s.verificationStatus,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

const payoutFromRow = (r: Selectable<PayoutSettings>): PayoutSetting => ({
  id: r.id,
  merchantId: r.merchant_id,
  transferInstrumentId: r.transfer_instrument_id,
  enabled: flag(r.enabled),
  enabledFromDate: r.enabled_from_date,
  priority: r.priority as PayoutSetting['priority'],
  verificationStatus: r.verification_status as PayoutSetting['verificationStatus'],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const payoutToRow = (p: PayoutSetting): Insertable<PayoutSettings> => ({
  id: p.id,
  merchant_id: p.merchantId,
  transfer_instrument_id: p.transferInstrumentId,
  enabled: p.enabled,
  enabled_from_date: p.enabledFromDate,
  priority: p.priority,
  verification_status: p.verificationStatus,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

const splitFromRow = (r: Selectable<SplitConfigurations>): SplitConfigurationRecord => ({
  id: r.id,
  merchantId: r.merchant_id,
  description: r.description,
  rules: parsed<SplitConfigurationRecord['rules']>(r.rules),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const splitToRow = (c: SplitConfigurationRecord): Insertable<SplitConfigurations> => ({
  id: c.id,
  merchant_id: c.merchantId,
  description: c.description,
  rules: jsonText(c.rules),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** Payment method settings of merchant accounts (which methods they accept, where and how). */
export function paymentMethodSettingsStore(db: Db) {
  const { q } = db;
  const settings = () => q.selectFrom('payment_method_settings').selectAll();
  return {
    insert: async (setting: PaymentMethodSetting): Promise<void> =>
      void (await q.insertInto('payment_method_settings').values(settingToRow(setting)).execute()),
    get: async (id: string): Promise<PaymentMethodSetting | undefined> => {
      const row = await settings().where('id', '=', id).executeTakeFirst();
      return row && settingFromRow(row);
    },
    /** The merchant account's settings in the order they were made. */
    list: async (merchantId: string): Promise<PaymentMethodSetting[]> =>
      (await settings().where('merchant_id', '=', merchantId).orderBy('created_at').orderBy('id').execute()).map(settingFromRow),
    /** Writes what can change of a setting; its id, merchant account, type and creation time stay. */
    update: async (setting: PaymentMethodSetting): Promise<void> => {
      const { id, merchant_id: _merchant, type: _type, created_at: _created, ...changes } = settingToRow(setting);
      await q.updateTable('payment_method_settings').set(changes).where('id', '=', id).execute();
    },
  };
}

/** Payout settings of merchant accounts (the transfer instruments their funds are paid out to). */
export function payoutsStore(db: Db) {
  const { q } = db;
  const payouts = () => q.selectFrom('payout_settings').selectAll();
  return {
    insert: async (setting: PayoutSetting): Promise<void> => void (await q.insertInto('payout_settings').values(payoutToRow(setting)).execute()),
    get: async (id: string): Promise<PayoutSetting | undefined> => {
      const row = await payouts().where('id', '=', id).executeTakeFirst();
      return row && payoutFromRow(row);
    },
    /** The merchant account's payout settings in the order they were made. */
    list: async (merchantId: string): Promise<PayoutSetting[]> =>
      (await payouts().where('merchant_id', '=', merchantId).orderBy('created_at').orderBy('id').execute()).map(payoutFromRow),
    /** Writes what can change of a payout setting: whether (and from when) it is enabled. */
    update: async (setting: PayoutSetting): Promise<void> => {
      await q
        .updateTable('payout_settings')
        .set({ enabled: setting.enabled, enabled_from_date: setting.enabledFromDate, updated_at: setting.updatedAt })
        .where('id', '=', setting.id)
        .execute();
    },
    delete: async (id: string): Promise<void> => void (await q.deleteFrom('payout_settings').where('id', '=', id).execute()),
  };
}

/** Split configuration profiles of merchant accounts (rules read and written whole). */
export function splitsStore(db: Db) {
  const { q } = db;
  const splits = () => q.selectFrom('split_configurations').selectAll();
  return {
    insert: async (config: SplitConfigurationRecord): Promise<void> => void (await q.insertInto('split_configurations').values(splitToRow(config)).execute()),
    get: async (id: string): Promise<SplitConfigurationRecord | undefined> => {
      const row = await splits().where('id', '=', id).executeTakeFirst();
      return row && splitFromRow(row);
    },
    /** The merchant account's split configurations in the order they were made. */
    list: async (merchantId: string): Promise<SplitConfigurationRecord[]> =>
      (await splits().where('merchant_id', '=', merchantId).orderBy('created_at').orderBy('id').execute()).map(splitFromRow),
    /** Writes what can change of a configuration: its description and rules. */
    update: async (config: SplitConfigurationRecord): Promise<void> => {
      const { description, rules, updated_at } = splitToRow(config);
      await q.updateTable('split_configurations').set({ description, rules, updated_at }).where('id', '=', config.id).execute();
    },
    delete: async (id: string): Promise<void> => void (await q.deleteFrom('split_configurations').where('id', '=', id).execute()),
  };
}

export type PaymentMethodSettingsStore = ReturnType<typeof paymentMethodSettingsStore>;
export type PayoutsStore = ReturnType<typeof payoutsStore>;
export type SplitsStore = ReturnType<typeof splitsStore>;
