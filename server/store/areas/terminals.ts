import type { Insertable, Selectable } from 'kysely';
import { jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import type { StoresTable, TerminalsTable } from '../schema.js';
import type { SettingsLevel, SettingsSections, StoreLocation, Terminal } from '../types.js';

const storeFromRow = (r: Selectable<StoresTable>): StoreLocation => ({
  id: r.id,
  merchantId: r.merchant_id,
  reference: r.reference,
  description: r.description,
});

const storeToRow = (s: StoreLocation): Insertable<StoresTable> => ({
  id: s.id,
  merchant_id: s.merchantId,
  reference: s.reference,
  description: s.description,
});

const terminalFromRow = (r: Selectable<TerminalsTable>): Terminal => ({ id: r.id, storeId: r.store_id, model: r.model });

const terminalToRow = (t: Terminal): Insertable<TerminalsTable> => ({ id: t.id, store_id: t.storeId, model: t.model });

/** Stores (physical locations of merchant accounts), their terminals, and terminal settings per level. */
export function terminalsStore(db: Db) {
  const { q } = db;
  const stores = () => q.selectFrom('stores').selectAll();
  return {
    insertStore: async (store: StoreLocation): Promise<void> => void (await q.insertInto('stores').values(storeToRow(store)).execute()),
    getStore: async (id: string): Promise<StoreLocation | undefined> => {
      const row = await stores().where('id', '=', id).executeTakeFirst();
      return row && storeFromRow(row);
    },
    storeByReference: async (merchantId: string, reference: string): Promise<StoreLocation | undefined> => {
      const row = await stores().where('merchant_id', '=', merchantId).where('reference', '=', reference).executeTakeFirst();
      return row && storeFromRow(row);
    },
    insertTerminal: async (terminal: Terminal): Promise<void> => void (await q.insertInto('terminals').values(terminalToRow(terminal)).execute()),
    getTerminal: async (id: string): Promise<Terminal | undefined> => {
      const row = await q.selectFrom('terminals').selectAll().where('id', '=', id).executeTakeFirst();
      return row && terminalFromRow(row);
    },
    /** The settings a level (company, merchant, store, terminal) sets itself for one owner; undefined when it sets none. */
    getSettings: async (level: SettingsLevel, ownerId: string): Promise<SettingsSections | undefined> => {
      const row = await q.selectFrom('terminal_settings').select('sections').where('level', '=', level).where('owner_id', '=', ownerId).executeTakeFirst();
      return row && parsed<SettingsSections>(row.sections);
    },
    /** Replaces the settings a level sets for one owner (inserted the first time). */
    putSettings: async (level: SettingsLevel, ownerId: string, sections: SettingsSections, updatedAt: string): Promise<void> => {
      const text = jsonText(sections);
      await q
        .insertInto('terminal_settings')
        .values({ level, owner_id: ownerId, sections: text, updated_at: updatedAt })
        .onConflict((oc) => oc.columns(['level', 'owner_id']).doUpdateSet({ sections: text, updated_at: updatedAt }))
        .execute();
    },
  };
}

export type TerminalsStore = ReturnType<typeof terminalsStore>;
