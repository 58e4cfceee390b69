import { type Selectable, sql } from 'kysely';
import { jsonText, paged, parsed } from '../codec.js';
import type { Db } from '../db.js';
import type { SettingsLevel, SettingsSections, Terminal, TerminalFilter } from '../records/merchant-settings.js';
import type { Page } from '../records/page.js';
import type { Terminals } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const terminalFromRow = (r: Selectable<Terminals>): Terminal => ({ ...r, status: r.status as Terminal['status'] });

/** `text` as a LIKE pattern that matches it anywhere, with LIKE's own characters escaped (by `\`). */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Terminals, the terminal settings of every level, and the terminal logos of every level and model. */
export function terminalsStore(db: Db) {
  const { q } = db;
  return {
    insertTerminal: async (terminal: Terminal): Promise<void> => void (await q.insertInto('terminals').values(terminal).execute()),
    getTerminal: async (id: string): Promise<Terminal | undefined> => {
      const row = await q.selectFrom('terminals').selectAll().where('id', '=', id).executeTakeFirst();
      return row && terminalFromRow(row);
    },
    /** A page of terminals by identifier; every filter given must match. */
    listTerminals: async (filter: TerminalFilter, offset: number, limit: number): Promise<Page<Terminal>> => {
      // IN () is not valid SQL everywhere: a filter with no values matches nothing.
      if ([filter.merchantIds, filter.countries, filter.storeIds, filter.brandModels].some((list) => list?.length === 0)) return { items: [], total: 0 };
      const scope = () => {
        let query = q.selectFrom('terminals').where('companyId', '=', filter.companyId);
        if (filter.merchantIds) query = query.where('merchantId', 'in', filter.merchantIds);
        if (filter.countries) query = query.where('countryCode', 'in', filter.countries);
        if (filter.storeIds) query = query.where('storeId', 'in', filter.storeIds);
        const { brandModels, idContains } = filter;
        if (brandModels) query = query.where((eb) => eb.or(brandModels.map(({ brand, model }) => eb.and([eb('brand', '=', brand), eb('model', '=', model)]))));
        // Case-insensitive on both engines (SQLite's LIKE is for ASCII, PostgreSQL's never is).
        if (idContains !== undefined) query = query.where(sql<boolean>`lower(${sql.ref('id')}) LIKE ${containsPattern(idContains)} ESCAPE '\\'`);
        return query;
      };
      const page = scope().selectAll().orderBy('id').offset(offset).limit(limit);
      return paged(
        scope().select((eb) => eb.fn.countAll().as('n')),
        page,
        terminalFromRow,
      );
    },
    /** Moves a store's terminals to their merchant account's inventory (the store closed). */
    storeTerminalsToInventory: async (storeId: string): Promise<void> =>
      void (await q.updateTable('terminals').set({ storeId: null, status: 'inventory' }).where('storeId', '=', storeId).execute()),
    /** The settings a level (company, merchant, store, terminal) sets itself for one owner; undefined when it sets none. */
    getSettings: async (level: SettingsLevel, ownerId: string): Promise<SettingsSections | undefined> => {
      const row = await q.selectFrom('terminalSettings').select('sections').where('level', '=', level).where('ownerId', '=', ownerId).executeTakeFirst();
      return row && parsed<SettingsSections>(row.sections);
    },
    /** Replaces the settings a level sets for one owner (inserted the first time). */
    putSettings: async (level: SettingsLevel, ownerId: string, sections: SettingsSections, updatedAt: string): Promise<void> => {
      const text = jsonText(sections);
      await q
        .insertInto('terminalSettings')
        .values({ level, ownerId, sections: text, updatedAt })
        .onConflict((oc) => oc.columns(['level', 'ownerId']).doUpdateSet({ sections: text, updatedAt }))
        .execute();
    },
    /** The logo (base64 PNG) a level sets itself for one owner and terminal model; undefined when it sets none. */
    getLogo: async (level: SettingsLevel, ownerId: string, model: string): Promise<string | undefined> =>
      (
        await q
          .selectFrom('terminalLogos')
          .select('data')
          .where('level', '=', level)
          .where('ownerId', '=', ownerId)
          .where('model', '=', model)
          .executeTakeFirst()
      )?.data,
    /** Sets the logo of a level, owner and model (replacing any); `undefined` removes it, so the level inherits again. */
    putLogo: async (level: SettingsLevel, ownerId: string, model: string, data: string | undefined, updatedAt: string): Promise<void> => {
      if (data === undefined) {
        await q.deleteFrom('terminalLogos').where('level', '=', level).where('ownerId', '=', ownerId).where('model', '=', model).execute();
        return;
      }
      await q
        .insertInto('terminalLogos')
        .values({ level, ownerId, model, data, updatedAt })
        .onConflict((oc) => oc.columns(['level', 'ownerId', 'model']).doUpdateSet({ data, updatedAt }))
        .execute();
    },
  };
}

export type TerminalsStore = ReturnType<typeof terminalsStore>;
