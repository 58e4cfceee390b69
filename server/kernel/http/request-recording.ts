import type { Request, RequestHandler, Response } from 'express';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { maskCardNumbers, mayHoldSecrets, redactJson, redactQuery } from '../redaction.js';
import type { Store } from '../../store/tx.js';
import type { RequestLogRecord } from '../../store/types.js';
import type { Caller } from './request-context.js';

/** A company keeps its newest entries of this many days… */
export const REQUEST_LOG_DAYS = 7;
/** …and at most this many. */
export const REQUEST_LOG_ENTRIES = 10_000;
/** How often the queue is written. */
const FLUSH_MS = 1000;
/** Written at once when this many wait. */
const FLUSH_AT = 200;
/** Beyond this many waiting (the database is away), the oldest are dropped rather than memory grown. */
const MAX_QUEUED = 20_000;
/** Bodies longer than this are stored as a note of their length. */
const MAX_BODY_CHARS = 64 * 1024;

/** What a finished request leaves for the writer: raw, redacted only when written (off the request's path). */
interface Pending {
  companyId: string;
  occurredAt: string;
  area: string;
  method: string;
  path: string;
  query: string | null;
  operationId: string | null;
  status: number;
  durationMs: number;
  credentialId: string;
  credentialUsername: string;
  idempotencyKey: string | null;
  requestId: string;
  pathParams: Record<string, string>;
  merchantAccount: string | null;
  requestBody: unknown;
  responseText: string | null;
}

const tooLong = (length: number) => `[a body of ${length} characters, not kept]`;

/** A JSON text as stored: redacted (parsed and walked only when it may hold a secret), or a note of its length when too long. */
function storedText(text: string, parsed: () => unknown): string {
  const kept = mayHoldSecrets(text) ? JSON.stringify(redactJson(parsed())) : text;
  return kept.length > MAX_BODY_CHARS ? JSON.stringify(tooLong(kept.length)) : kept;
}

function storedJson(value: unknown): string | null {
  return value === undefined ? null : storedText(JSON.stringify(value), () => value);
}

const field = (value: unknown, name: string): string | undefined => {
  const found = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  return typeof found === 'string' ? found : undefined;
};

/** An answer read as JSON, or, when it is not JSON, as its text with card numbers masked. */
function parseOrText(text: string): { value: unknown; json: boolean } {
  try {
    return { value: JSON.parse(text) as unknown, json: true };
  } catch {
    return { value: maskCardNumbers(text), json: false };
  }
}

/** The record of a finished request: bodies redacted, the payment it concerns found in its path or answer. */
export function recordOf(p: Pending): RequestLogRecord {
  const text = p.responseText;
  // The answer read only when something is taken from it (a note of its length when too long).
  let read: { value: unknown; json: boolean } | undefined;
  const response = (): unknown =>
    text === null ? undefined : (read ??= text.length > MAX_BODY_CHARS ? { value: tooLong(text.length), json: false } : parseOrText(text)).value;
  let responseBody: string | null = null;
  if (text !== null) {
    // The answers are JSON.stringify's own text: kept as they are unless they may hold a secret.
    if (text.length <= MAX_BODY_CHARS && /^[[{]/.test(text) && !mayHoldSecrets(text)) responseBody = text;
    else {
      const value = response();
      responseBody = read!.json ? storedText(text, () => value) : JSON.stringify(value);
    }
  }
  /** A top-level field of the answer, read without parsing an answer that does not name it. */
  const answered = (name: string) => (text?.includes(`"${name}"`) ? field(response(), name) : undefined);
  const pspReference = p.pathParams.paymentPspReference ?? p.pathParams.pspReference ?? answered('paymentPspReference') ?? answered('pspReference') ?? null;
  const merchantAccount = p.merchantAccount ?? field(p.requestBody, 'merchantAccount') ?? answered('merchantAccount') ?? null;
  return {
    companyId: p.companyId,
    occurredAt: p.occurredAt,
    area: p.area,
    method: p.method,
    path: maskCardNumbers(p.path),
    query: p.query === null ? null : redactQuery(p.query),
    operationId: p.operationId,
    status: p.status,
    durationMs: p.durationMs,
    credentialId: p.credentialId,
    credentialUsername: p.credentialUsername,
    idempotencyKey: p.idempotencyKey === null ? null : maskCardNumbers(p.idempotencyKey),
    requestId: p.requestId,
    pspReference,
    merchantAccount,
    requestBody: storedJson(p.requestBody),
    responseBody,
  };
}

/**
 * The request log the console shows (spec/console, docs/console.md): every authenticated request
 * of the API areas, queued when its answer has gone out and written in batches about once a
 * second, so that no request waits for it. Redaction runs when the batch is written. What is
 * queued lives only in this process until then: a crash loses up to a second of entries;
 * `close()` (shutdown) writes what is left. Each write also trims the companies it wrote for to
 * their newest REQUEST_LOG_ENTRIES of the last REQUEST_LOG_DAYS days.
 */
export class RequestRecorder {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;
  private dropped = 0;

  constructor(private readonly deps: { store: Store; clock: Clock; logger: Logger }) {}

  /** Records the requests of an area; put it first in the area's chain. Requests nobody authenticated belong to no company and are not recorded. */
  middleware(area: string, base: string): RequestHandler {
    return (req, res, next) => {
      const started = performance.now();
      let responseText: string | null = null;
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        if (typeof body === 'string') responseText = body;
        else if (Buffer.isBuffer(body)) responseText = body.toString('utf8');
        return send(body);
      };
      res.once('finish', () => this.finished(req, res, area, base, started, responseText));
      next();
    };
  }

  private finished(req: Request, res: Response, area: string, base: string, started: number, responseText: string | null): void {
    const caller = res.locals.caller as Caller | undefined;
    if (!caller || this.closed) return;
    const durationMs = Math.max(0, Math.round(performance.now() - started));
    const { credential } = caller;
    const [path, query] = req.originalUrl.split('?', 2) as [string, string | undefined];
    this.queue.push({
      companyId: credential.companyId,
      occurredAt: new Date(this.deps.clock.now(credential.companyId).getTime() - durationMs).toISOString(),
      area,
      method: req.method,
      path: path.slice(base.length) || '/',
      query: query ?? null,
      operationId: (res.locals.operationId as string | undefined) ?? null,
      status: res.statusCode,
      durationMs,
      credentialId: credential.id,
      credentialUsername: credential.username,
      idempotencyKey: req.get('idempotency-key') ?? null,
      requestId: (res.locals.requestId as string | undefined) ?? 'unknown',
      pathParams: (res.locals.pathParams as Record<string, string> | undefined) ?? {},
      merchantAccount: (res.locals.merchantAccount as string | undefined) ?? null,
      requestBody: req.body as unknown,
      responseText,
    });
    if (this.queue.length > MAX_QUEUED) this.dropped += this.queue.splice(0, this.queue.length - MAX_QUEUED).length;
    if (this.queue.length >= FLUSH_AT) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes everything queued so far; resolves when it is written (or failed and was logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    // One write at a time, in order.
    this.writing = this.writing.then(() => (batch.length > 0 ? this.write(batch) : undefined));
    return this.writing;
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const records = batch.map(recordOf);
      const companies = [...new Set(records.map((r) => r.companyId))];
      await this.deps.store.transaction(async (tx) => {
        await tx.requestLog.insertMany(records);
        for (const companyId of companies) {
          const cutoff = new Date(this.deps.clock.now(companyId).getTime() - REQUEST_LOG_DAYS * 86_400_000).toISOString();
          await tx.requestLog.prune(companyId, cutoff, REQUEST_LOG_ENTRIES);
        }
      });
    } catch (error) {
      this.deps.logger.warn('request log entries lost', { entries: batch.length, error: error instanceof Error ? error.message : String(error) });
    }
    if (this.dropped > 0) {
      this.deps.logger.warn('request log entries dropped: the queue was full', { entries: this.dropped });
      this.dropped = 0;
    }
  }

  /** Stops recording and writes what is queued (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}
