import type { AdjustableClock } from '../../kernel/clock.js';
import { ApiError, ERR_SANDBOX_ONLY } from '../../kernel/errors.js';
import { command, operation } from '../../kernel/http/handler.js';

function sandboxClockOf(clock: AdjustableClock | undefined): AdjustableClock {
  if (!clock) throw new ApiError(ERR_SANDBOX_ONLY);
  return clock;
}

const view = (clock: AdjustableClock, companyId: string) => ({
  companyId,
  now: clock.now(companyId).toISOString(),
  offsetSeconds: clock.offsetSeconds(companyId),
});

/** GET /sandbox/clock: the clock of the caller's company. */
export const getSandboxClock = operation('getSandboxClock')(({ caller }, deps) => view(sandboxClockOf(deps.sandboxClock), caller.credential.companyId));

/**
 * POST /sandbox/clock/advance: moves the caller's company's clock forward; it never moves back,
 * and no other company's time changes. Only a company-level credential may move it (the
 * operation's policy in server/operations.ts), since it expires every merchant account's things.
 */
export const advanceSandboxClock = command('advanceSandboxClock')(async ({ tx, body, caller }, deps) => {
  const clock = sandboxClockOf(deps.sandboxClock);
  await clock.advance(tx, caller.credential.companyId, body.seconds);
  return view(clock, caller.credential.companyId);
});
