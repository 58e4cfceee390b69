import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Store, Tx } from '../store/tx.js';
import type { IdempotencyRecord } from '../store/types.js';
import { ApiError, ERR_ALREADY_PROCESSED, ERR_IDEMPOTENCY_KEY_MALFORMED, ERR_IDEMPOTENCY_KEY_TOO_LONG } from './errors.js';
import { type Caller, callerOf, txContextOf } from './http/request-context.js';
import { sendJson } from './http/send-json.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 64;

/** Checks the Idempotency-Key header before anything else reads the request: too long or malformed is 400. */
export const idempotencyKeyHeader: RequestHandler = (req, _res, next) => {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (key.length > MAX_KEY_LENGTH) return next(new ApiError(ERR_IDEMPOTENCY_KEY_TOO_LONG));
  if (!/^[\x21-\x7E]+$/.test(key)) return next(new ApiError(ERR_IDEMPOTENCY_KEY_MALFORMED));
  next();
};

/** JSON with sorted keys, so that the same body always has the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fingerprint(req: Request): string {
  return createHash('sha256')
    .update(`${req.method} ${req.originalUrl}\n${canonical(req.body)}`)
    .digest('hex');
}

export type Effect<P, T> = (prepared: P) => Promise<T>;

export type Work<T> = (tx: Tx, caller: Caller, req: Request) => Promise<T>;

/** How long a stored response can be replayed: Adyen keeps keys at least 31 days. */
export const IDEMPOTENCY_RETENTION_DAYS = 31;

/** The status of a claimed key whose first request has not finished. */
const IN_PROGRESS = 0;
/** How long a claim of an outbound command may stay in progress before it is taken as abandoned. */
const CLAIM_LAPSES_MS = 10 * 60_000;

/** The moment before which a company's records have expired, on that company's clock. */
export function idempotencyCutoff(now: Date): string {
  return new Date(now.getTime() - IDEMPOTENCY_RETENTION_DAYS * 86_400_000).toISOString();
}

/**
 * Runs state-changing checkout operations. Without an Idempotency-Key the work runs in one
 * transaction. With one, the first response is stored in the same transaction as the work's
 * effect, so a repeat replays it (status and body) without doing anything again; a repeat
 * while the first is running, or with another request under the same key, is refused (704).
 *
 * Keys belong to the credential that sent them (a rotated key of the same credential still
 * replays): another credential of the same company neither sees nor blocks them. This is
 * stricter than Adyen, which scopes keys to the company account. A replay is answered only
 * after the caller passed the operation's authorization (the pipeline runs it first), so a
 * credential that lost a role or a merchant account cannot read back what it stored. Records
 * expire after 31 days on the company's clock. Failed requests store nothing: they changed
 * nothing, so repeating them is safe.
 */
export class Commands {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly now: (companyId: string) => Date,
  ) {}

  /** The stored response under the caller's key, unless it has expired (then it is deleted). */
  private async recorded(tx: Tx, caller: Caller, key: string) {
    const prior = await tx.idempotency.get(caller.credential.id, key);
    if (prior && prior.createdAt < idempotencyCutoff(this.now(caller.credential.companyId))) {
      await tx.idempotency.delete(caller.credential.id, key);
      return undefined;
    }
    return prior;
  }

  handler<T>(status: number, work: Work<T>): RequestHandler {
    return async (req, res) => {
      const caller = callerOf(res);
      const context = txContextOf(res);
      const key = req.get(IDEMPOTENCY_HEADER);
      if (key === undefined) {
        const body = await this.store.transaction((tx) => work(tx, caller, req), context);
        sendJson(res, status, body);
        return;
      }
      const scope = `${caller.credential.id}\u0000${key}`;
      // Only a first request that is still running makes a duplicate wait-less 704; replays of a
      // finished one never mark the key, so any number of them may run at once.
      if (this.inFlight.has(scope)) throw new ApiError(ERR_ALREADY_PROCESSED);
      const print = fingerprint(req);
      let marked = false;
      try {
        const outcome = await this.store.transaction(async (tx) => {
          if (this.store.serializesTransactions) {
            const prior = await this.recorded(tx, caller, key);
            if (prior) return this.replay(prior, print);
            if (this.inFlight.has(scope)) throw new ApiError(ERR_ALREADY_PROCESSED);
            this.inFlight.add(scope);
            marked = true;
            // Transactions run one at a time: nothing can claim the key between the lookup and this insert.
            const body = await work(tx, caller, req);
            await tx.idempotency.insert(this.record(caller, key, print, status, JSON.stringify(body)));
            return { status, body: body as unknown, replayed: false };
          }
          // The key is claimed in the database before the work (a new key: one statement). The same
          // key sent to another instance at the same time waits on this claim and then replays what
          // this one stored; a key already used is read and replayed (or, expired, claimed anew).
          if (this.inFlight.has(scope)) throw new ApiError(ERR_ALREADY_PROCESSED);
          const claim = this.record(caller, key, print, IN_PROGRESS, '');
          if (!(await tx.idempotency.claim(claim))) {
            const prior = await this.recorded(tx, caller, key);
            if (prior) {
              if (prior.statusCode === IN_PROGRESS) throw new ApiError(ERR_ALREADY_PROCESSED);
              return this.replay(prior, print);
            }
            if (!(await tx.idempotency.claim(claim))) throw new ApiError(ERR_ALREADY_PROCESSED);
          }
          this.inFlight.add(scope);
          marked = true;
          const body = await work(tx, caller, req);
          // The transaction's last write: it commits only if the record does, and the answer below is
          // sent once both are durable. Left to the store rather than awaited here, so that a store
          // that pipelines can send it with COMMIT (a round trip fewer; docs/performance.md).
          tx.beforeCommit(() => tx.idempotency.complete(caller.credential.id, key, status, JSON.stringify(body)));
          return { status, body: body as unknown, replayed: false };
        }, context);
        // The request log and the metrics count replays.
        if (outcome.replayed) res.locals.idempotentReplay = true;
        sendWithKey(res, outcome.status, outcome.body, key);
      } finally {
        if (marked) this.inFlight.delete(scope);
      }
    };
  }

  /** The stored answer to repeat, if the repeat is the same request. */
  private replay(prior: IdempotencyRecord, print: string): { status: number; body: unknown; replayed: true } {
    if (prior.statusCode === IN_PROGRESS) throw new ApiError(ERR_ALREADY_PROCESSED);
    if (prior.fingerprint !== print) {
      throw new ApiError(ERR_ALREADY_PROCESSED, {
        message: 'request already processed or in progress: the Idempotency-Key was used for a different request',
      });
    }
    return { status: prior.statusCode, body: JSON.parse(prior.body) as unknown, replayed: true };
  }

  private record(caller: Caller, key: string, print: string, statusCode: number, body: string): IdempotencyRecord {
    return {
      credentialId: caller.credential.id,
      companyId: caller.credential.companyId,
      key,
      fingerprint: print,
      statusCode,
      body,
      createdAt: this.now(caller.credential.companyId).toISOString(),
    };
  }

  /**
   * For commands whose effect leaves this system (an outbound HTTP call): `prepare` runs in a
   * transaction, `effect` outside any (a slow third party must not hold the store), and with an
   * Idempotency-Key the response is recorded afterwards. The key is claimed (committed, marked in
   * progress) before the effect, so a repeat on any instance meanwhile gets 704; a failed effect
   * releases the claim, and a claim left by a crashed process lapses after ten minutes. A crash
   * between the effect and the record means a retry repeats the effect: such operations are
   * at-least-once, and say so.
   */
  effectHandler<P, T>(status: number, prepare: Work<P>, effect: Effect<P, T>): RequestHandler {
    return async (req, res) => {
      const caller = callerOf(res);
      const context = txContextOf(res);
      const key = req.get(IDEMPOTENCY_HEADER);
      const scope = key === undefined ? undefined : `${caller.credential.id}\u0000${key}`;
      if (scope !== undefined && this.inFlight.has(scope)) throw new ApiError(ERR_ALREADY_PROCESSED);
      if (scope !== undefined) this.inFlight.add(scope);
      let claimed = false;
      try {
        const print = fingerprint(req);
        const first = await this.store.transaction(async (tx) => {
          if (key !== undefined) {
            let prior = await this.recorded(tx, caller, key);
            if (prior?.statusCode === IN_PROGRESS && Date.parse(prior.createdAt) < this.now(caller.credential.companyId).getTime() - CLAIM_LAPSES_MS) {
              await tx.idempotency.delete(caller.credential.id, key);
              prior = undefined;
            }
            if (prior) return { replay: this.replay(prior, print) };
            if (!(await tx.idempotency.claim(this.record(caller, key, print, IN_PROGRESS, '')))) throw new ApiError(ERR_ALREADY_PROCESSED);
            claimed = true;
          }
          return { prepared: await prepare(tx, caller, req) };
        }, context);
        if ('replay' in first && first.replay) {
          res.locals.idempotentReplay = true;
          return sendWithKey(res, first.replay.status, first.replay.body, key);
        }
        const body = await effect((first as { prepared: P }).prepared);
        if (key !== undefined) await this.store.transaction((tx) => tx.idempotency.complete(caller.credential.id, key, status, JSON.stringify(body)));
        claimed = false;
        sendWithKey(res, status, body, key);
      } finally {
        if (scope !== undefined) this.inFlight.delete(scope);
        // The effect failed: nothing is recorded, so the same request may be sent again.
        if (claimed && key !== undefined) await this.store.transaction((tx) => tx.idempotency.delete(caller.credential.id, key)).catch(() => undefined);
      }
    };
  }
}

function sendWithKey(res: Response, status: number, body: unknown, key: string | undefined) {
  if (key !== undefined) res.set(IDEMPOTENCY_HEADER, key);
  sendJson(res, status, body);
}
