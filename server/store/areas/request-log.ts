import { type Selectable, sql } from 'kysely';
import type { Db } from '../db.js';
import { preparedInsert } from '../prepared.js';
import type { ConsoleScope, RequestLogFilter, RequestLogRecord, StoredRequestLogEntry } from '../records/console.js';
import type { RequestLog } from '../schema.generated.js';

const fromRow = (r: Selectable<RequestLog>): StoredRequestLogEntry => ({ ...r, id: Number(r.id) });

/**
 * One entry, compiled once (prepared.ts): a batch is written as one statement per entry in one
 * transaction. A multi-row insert built per batch spent more CPU in the query builder than the
 * engines spent writing it (the log is written beside every request of a busy sandbox).
 */
const insertEntry = preparedInsert('requestLog');

/** The request log the console shows: every checkout, management and client-side request, per company, bodies redacted. */
export function requestLogStore(db: Db) {
  const { q } = db;
  /** What the scope lets a credential see: its company's, narrowed to its merchant accounts and what it made itself. */
  const scoped = (scope: ConsoleScope) => {
    let query = q.selectFrom('requestLog').where('companyId', '=', scope.companyId);
    const merchants = scope.merchantAccounts;
    if (merchants !== null) {
      query = query.where((eb) =>
        merchants.length > 0
          ? eb.or([eb('merchantAccount', 'in', merchants), eb('credentialId', '=', scope.credentialId)])
          : eb('credentialId', '=', scope.credentialId),
      );
    }
    return query;
  };
  return {
    insertMany: async (entries: readonly RequestLogRecord[]): Promise<void> => {
      for (const entry of entries) await insertEntry(db, entry);
    },
    /**
     * Keeps a company's newest `keep` entries of the last period: deletes what is older than
     * `olderThan` (the (company, time) index: nothing read when nothing is old), and what lies
     * beyond the `keep`th newest id (the (company, id) index).
     */
    prune: async (companyId: string, olderThan: string, keep: number): Promise<void> => {
      await q.deleteFrom('requestLog').where('companyId', '=', companyId).where('occurredAt', '<', olderThan).execute();
      const edge = await q
        .selectFrom('requestLog')
        .select('id')
        .where('companyId', '=', companyId)
        .orderBy('id', 'desc')
        .offset(keep - 1)
        .limit(1)
        .executeTakeFirst();
      if (edge) await q.deleteFrom('requestLog').where('companyId', '=', companyId).where('id', '<', edge.id).execute();
    },
    /** Entries of the scope, newest first, without bodies. */
    list: async (scope: ConsoleScope, filter: RequestLogFilter): Promise<StoredRequestLogEntry[]> => {
      let query = scoped(scope).selectAll();
      if (filter.path !== undefined) query = query.where(sql<boolean>`substr(path, 1, ${filter.path.length}) = ${filter.path}`);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.requestId !== undefined) query = query.where('requestId', '=', filter.requestId);
      if (filter.pspReference !== undefined) query = query.where('pspReference', '=', filter.pspReference);
      if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
      const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
      return rows.map((r) => ({ ...fromRow(r), requestBody: null, responseBody: null }));
    },
    get: async (scope: ConsoleScope, id: number): Promise<StoredRequestLogEntry | undefined> => {
      const row = await scoped(scope).selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The entries of the scope about a payment: by its pspReference, or by a request id its events keep; oldest first. */
    aboutPayment: async (scope: ConsoleScope, pspReference: string, requestIds: readonly string[], limit: number): Promise<StoredRequestLogEntry[]> => {
      const rows = await scoped(scope)
        .selectAll()
        .where((eb) =>
          requestIds.length > 0 ? eb.or([eb('pspReference', '=', pspReference), eb('requestId', 'in', requestIds)]) : eb('pspReference', '=', pspReference),
        )
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => ({ ...fromRow(r), requestBody: null, responseBody: null }));
    },
  };
}

export type RequestLogStore = ReturnType<typeof requestLogStore>;
