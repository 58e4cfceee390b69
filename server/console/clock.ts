import { ApiError, ERR_SANDBOX_ONLY } from '../kernel/errors.js';
import { operation } from '../kernel/http/handler.js';

/** The due items an answer lists at most (the rest is applied all the same). */
const DUE_LIMIT = 500;

/**
 * POST /clock/advance: the company's sandbox clock moves as checkout's advance moves it (one
 * relative update, so advances on any instance all count), and the answer lists what fell due
 * between the time before and after, read in the same transaction.
 */
export const advanceConsoleClock = operation('advanceConsoleClock')(async ({ body, caller }, deps) => {
  const clock = deps.sandboxClock;
  if (deps.config.mode !== 'sandbox' || !clock) throw new ApiError(ERR_SANDBOX_ONLY);
  const companyId = caller.credential.companyId;
  return deps.store.transaction(async (tx) => {
    // Read again first: another instance may have moved this company's clock.
    await clock.refresh(tx);
    const before = clock.now(companyId).toISOString();
    await clock.advance(tx, companyId, body.seconds);
    const now = clock.now(companyId);
    const due = await tx.console.dueBetween(companyId, before, now.toISOString(), DUE_LIMIT);
    return { companyId, before, now: now.toISOString(), offsetSeconds: clock.offsetSeconds(companyId), due };
  });
});
