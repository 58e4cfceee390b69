import type { operations } from '../../generated/checkout.js';
import type { AdjustableClock } from '../clock.js';
import { ApiError, ERR_SANDBOX_ONLY } from '../http/errors.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';

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
export const getSandboxClock: HandlerFactory = (deps) => async (_req, res) => {
  res.json(view(sandboxClockOf(deps.sandboxClock), callerOf(res).credential.companyId));
};

/**
 * POST /sandbox/clock/advance: moves the caller's company's clock forward; it never moves back,
 * and no other company's time changes. Only a company-level credential may move it (the
 * operation's policy in server/operations.ts), since it expires every merchant account's things.
 */
export const advanceSandboxClock: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const clock = sandboxClockOf(deps.sandboxClock);
    const body = req.body as JsonBody<operations['advanceSandboxClock']>;
    await clock.advance(tx, caller.credential.companyId, body.seconds);
    return view(clock, caller.credential.companyId);
  });
