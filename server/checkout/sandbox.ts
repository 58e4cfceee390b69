import type { operations } from '../../generated/checkout.js';
import type { AdjustableClock } from '../clock.js';
import { ApiError, ERR_SANDBOX_ONLY } from '../http/errors.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';

function sandboxClockOf(clock: AdjustableClock | undefined): AdjustableClock {
  if (!clock) throw new ApiError(ERR_SANDBOX_ONLY);
  return clock;
}

const view = (clock: AdjustableClock) => ({ now: clock.now().toISOString(), offsetSeconds: clock.offsetSeconds() });

/** GET /sandbox/clock */
export const getSandboxClock: HandlerFactory = (deps) => async (_req, res) => {
  res.json(view(sandboxClockOf(deps.sandboxClock)));
};

/** POST /sandbox/clock/advance: moves the clock forward; it never moves back. */
export const advanceSandboxClock: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, _caller, req) => {
    const clock = sandboxClockOf(deps.sandboxClock);
    const body = req.body as JsonBody<operations['advanceSandboxClock']>;
    await clock.advance(tx, body.seconds);
    return view(clock);
  });
