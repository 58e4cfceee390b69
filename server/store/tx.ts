import { androidStore } from './areas/android.js';
import { companiesStore, merchantsStore, settingsStore } from './areas/companies.js';
import { credentialsStore } from './areas/credentials.js';
import { idempotencyStore } from './areas/idempotency.js';
import { linksStore } from './areas/links.js';
import { paymentMethodSettingsStore, payoutsStore, splitsStore } from './areas/merchant-settings.js';
import { ordersStore } from './areas/orders.js';
import { outboxStore } from './areas/outbox.js';
import { paymentsStore } from './areas/payments.js';
import { rateLimitsStore } from './areas/rate-limits.js';
import { sealedSecretsStore } from './areas/sealed-secrets.js';
import { sessionsStore } from './areas/sessions.js';
import { storedMethodsStore } from './areas/stored-methods.js';
import { terminalsStore } from './areas/terminals.js';
import { storesStore } from './areas/stores.js';
import { webhooksStore } from './areas/webhooks.js';
import { usersStore } from './areas/users.js';
import { donationsStore } from './areas/donations.js';
import { disputesStore } from './areas/disputes.js';
import { consoleStore } from './areas/console.js';
import { requestLogStore } from './areas/request-log.js';
import type { Db } from './db.js';
import type { Merchant } from './records/accounts.js';

/** What a transaction knows of the request it works for (see Store.transaction). */
export interface TxContext {
  /** The request's id (X-Request-Id); null for the server's own work. Events keep it. */
  requestId: string | null;
  /**
   * The merchant account the request's scope check read just before (checkout's
   * `merchantAccount`), or null. The transaction uses it instead of reading it again: that read
   * took no lock either, so it is as current as a second one (one round trip fewer on PostgreSQL).
   */
  merchant: Merchant | null;
}

/** A transaction's context from what the caller passed (Store.transaction's `context`); the rest null. */
export function txContext(given?: Partial<TxContext>): TxContext {
  return { requestId: given?.requestId ?? null, merchant: given?.merchant ?? null };
}

/**
 * Waits for statements a transaction's work asks for together (PostgreSQL sends them in one round
 * trip) and, if one failed, throws its error only once every one has finished. Unlike
 * `Promise.all`, no part of the work is still running (and about to write) when the transaction
 * ends and is rolled back.
 */
export async function together<T extends readonly unknown[] | []>(work: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(work as readonly unknown[]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** A write a transaction's work leaves for last (Tx.beforeCommit): one statement, sent when called. */
export type LastWrite = () => Promise<unknown>;

const noTransaction = (): void => {
  throw new Error('beforeCommit is for Store.transaction: reads and single statements have no commit to write before');
};

/**
 * What a transaction offers: one store module per area, all on the transaction's connection, and
 * its context. `lastWrites` collects what the work leaves for last; the engine makes those writes
 * before it commits (a view without one, for reads, refuses them).
 */
export function openTx(db: Db, lastWrites?: LastWrite[]) {
  return {
    context: txContext(),
    /**
     * Makes `write` (one statement, such as recording an idempotent response) after the work has
     * returned, as the transaction's last write: the transaction commits only if it succeeds, and
     * `Store.transaction` resolves only once both are durable. An engine that pipelines sends it
     * with COMMIT, a round trip fewer than awaiting it inside the work.
     */
    beforeCommit: lastWrites ? (write: LastWrite): void => void lastWrites.push(write) : noTransaction,
    settings: settingsStore(db),
    sealedSecrets: sealedSecretsStore(db),
    companies: companiesStore(db),
    merchants: merchantsStore(db),
    credentials: credentialsStore(db),
    idempotency: idempotencyStore(db),
    payments: paymentsStore(db),
    orders: ordersStore(db),
    links: linksStore(db),
    sessions: sessionsStore(db),
    storedMethods: storedMethodsStore(db),
    paymentMethodSettings: paymentMethodSettingsStore(db),
    payouts: payoutsStore(db),
    splits: splitsStore(db),
    android: androidStore(db),
    terminals: terminalsStore(db),
    stores: storesStore(db),
    webhooks: webhooksStore(db),
    outbox: outboxStore(db),
    rateLimits: rateLimitsStore(db),
    users: usersStore(db),
    donations: donationsStore(db),
    disputes: disputesStore(db),
    console: consoleStore(db),
    requestLog: requestLogStore(db),
  };
}

export type Tx = ReturnType<typeof openTx>;

export interface Store {
  /**
   * Whether other processes (server instances) may use the same data at the same time. Then what
   * one process keeps in memory may be stale: state every instance must agree on (rate-limit
   * buckets) lives in the store, and what another may change (a company's clock) is read again
   * before it decides anything. When not, this process sees every change as it makes it.
   */
  readonly sharedBetweenProcesses: boolean;
  /**
   * Whether transactions run one at a time, here and in any other process: nothing else writes
   * between a transaction's reads and its commit, so a key it found unused may be inserted at the
   * end of its work without claiming it first.
   */
  readonly serializesTransactions: boolean;
  /**
   * Runs `work` in one transaction: everything it wrote, and what it left for last
   * (`tx.beforeCommit`), is committed (durably) before the returned promise resolves, or nothing
   * is if it or a last write throws. Reads that guard an invariant lock their rows (store
   * modules' `getForUpdate`), so concurrent transactions, on this instance or another one sharing
   * the database, cannot both act on what they read. `context` says which
   * request the work is for (`tx.context`): passed along, not looked up, since the transactions of
   * several requests may run in one batch (SQLite's group commit).
   */
  transaction<T>(work: (tx: Tx) => Promise<T>, context?: Partial<TxContext>): Promise<T>;
  /**
   * Runs `work` against committed data only, without waiting for writes (a read-only view: write
   * methods fail). For reads that change nothing; anything that may write uses `transaction`.
   */
  read<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `work` whose one write is a single statement, atomic by itself (a conditional upsert):
   * on PostgreSQL without an explicit transaction around it (one round trip instead of three),
   * on SQLite as a transaction.
   */
  statement<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Resolves when the database answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
