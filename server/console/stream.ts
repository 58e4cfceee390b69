import type { Operation } from '../kernel/http/handler.js';
import { callerOf } from '../kernel/http/request-context.js';
import { scopeOf } from './scope.js';
import { paymentView } from './views.js';

/** How often an open stream reads the database: every instance's changes show within about this. */
const POLL_MS = 1000;
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/**
 * How far back each read looks again: a transaction that committed late (its payment's
 * `updatedAt` older than the last one seen) is still found if it is no later than this.
 * What was already sent is recognised by its pspReference and `updatedAt`.
 */
const OVERLAP_MS = 5000;
const BATCH = 1000;

const cursorOf = (updatedAt: string, pspReference: string) => `${updatedAt}~${pspReference}`;

/**
 * GET /events/stream: server-sent events, by polling the payments' change time (an index on the
 * company and `updatedAt`), so that a change made on any instance reaches every stream. Written
 * to the socket as it comes: nothing between here and the client buffers (no compression; the
 * response validator checks JSON answers only).
 */
export const streamConsoleEvents: Operation<'streamConsoleEvents'> = {
  operationId: 'streamConsoleEvents',
  build: (deps) => async (req, res) => {
    const caller = callerOf(res);
    const scope = scopeOf(caller.credential);
    const { store } = deps;
    const lastEventId = req.get('last-event-id');
    const resumeAt = lastEventId?.split('~')[0];
    let since =
      resumeAt !== undefined && !Number.isNaN(Date.parse(resumeAt))
        ? resumeAt
        : ((await store.read((tx) => tx.console.latestChange(scope.companyId))) ?? new Date(0).toISOString());
    /** What was sent (or, on a fresh stream, was there before it opened): pspReference → updatedAt. */
    const sent = new Map<string, string>();
    const windowStart = () => new Date(Date.parse(since) - OVERLAP_MS).toISOString();
    // A fresh stream starts after what is there; a resumed one after the event it last received
    // (cursors order as their change times, then pspReferences).
    for (const p of await store.read((tx) => tx.console.changedPayments(scope, windowStart(), BATCH))) {
      if (resumeAt === undefined || cursorOf(p.updatedAt, p.pspReference) <= lastEventId!) sent.set(p.pspReference, p.updatedAt);
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    res.write(': connected\n\n');

    let open = true;
    let timer: NodeJS.Timeout | undefined;
    let lastWrite = Date.now();
    const close = () => {
      open = false;
      clearTimeout(timer);
      if (!res.writableEnded) res.end();
    };
    // The response's close, not the request's: a request without a body may count as closed once read.
    res.on('close', close);

    /** Whether the caller may still read: a session signed out or expired, or a credential deactivated, ends the stream. */
    const stillAllowed = () =>
      store.read(async (tx) => {
        const credential = await tx.credentials.get(caller.credential.id);
        if (!credential?.active) return false;
        const session = caller.consoleSession;
        if (!session) return true;
        const row = await tx.console.getSession(session.tokenHash);
        return row !== undefined && Date.parse(row.expiresAt) > Date.now();
      });

    const poll = async () => {
      if (!open) return;
      try {
        if (!(await stillAllowed())) return close();
        const changed = await store.read((tx) => tx.console.changedPayments(scope, windowStart(), BATCH));
        for (const p of changed) {
          if (sent.get(p.pspReference) === p.updatedAt) continue;
          sent.set(p.pspReference, p.updatedAt);
          res.write(`event: payment\nid: ${cursorOf(p.updatedAt, p.pspReference)}\ndata: ${JSON.stringify(paymentView(p))}\n\n`);
          lastWrite = Date.now();
          if (p.updatedAt > since) since = p.updatedAt;
        }
        const cut = windowStart();
        for (const [psp, at] of sent) if (at < cut) sent.delete(psp);
        if (Date.now() - lastWrite >= HEARTBEAT_MS) {
          res.write(': keepalive\n\n');
          lastWrite = Date.now();
        }
      } catch (error) {
        deps.logger.warn('console stream read failed', {
          requestId: res.locals.requestId as string,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      if (open) timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
  },
};
