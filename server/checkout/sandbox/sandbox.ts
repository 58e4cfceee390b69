import type { AdjustableClock } from '../../kernel/clock.js';
import { ApiError, ERR_SANDBOX_ONLY } from '../../kernel/errors.js';
import { command, type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import { triggerEvent } from './events.domain.js';

/** The sandbox's own operations answer 404 in production mode. */
export function sandboxOnly(deps: HandlerDeps): void {
  if (deps.config.mode !== 'sandbox') throw new ApiError(ERR_SANDBOX_ONLY);
}

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

/**
 * POST /sandbox/payments/{paymentPspReference}/events: the event Adyen's platform would send for
 * the payment, now, with its change (events.domain.ts). Authorized as the clock is: only a
 * company-level credential (the operation's policy), and only in sandbox mode.
 */
export const triggerSandboxEvent = command('triggerSandboxEvent')(async ({ tx, body, path, caller, req }, deps) => {
  sandboxOnly(deps);
  const companyId = caller.credential.companyId;
  const ctx = { tx, now: deps.clock.now(companyId), credential: caller.credential, baseUrl: baseUrlOf(req, deps.config.publicBaseUrl) };
  return triggerEvent(ctx, path.paymentPspReference, body);
});
