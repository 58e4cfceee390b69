import type { Store, Tx } from './store/types.js';

/** The time every time-based rule uses. */
export interface Clock {
  now(): Date;
}

/** A clock that can be moved forward: the sandbox time control. */
export interface AdjustableClock extends Clock {
  offsetSeconds(): number;
  /** Moves the clock forward inside the caller's transaction. */
  advance(tx: Tx, seconds: number): Promise<void>;
}

const OFFSET_SETTING = 'sandbox.clockOffsetSeconds';

/**
 * Real time plus an offset that only grows. The offset is stored, so a restarted sandbox
 * keeps the time its integrators moved it to (otherwise expired things would come back).
 */
export class SandboxClock implements AdjustableClock {
  private constructor(
    private offset: number,
    private readonly realNow: () => number,
  ) {}

  static async load(store: Store, realNow: () => number = Date.now): Promise<SandboxClock> {
    const saved = await store.transaction((tx) => tx.getSetting(OFFSET_SETTING));
    return new SandboxClock(saved ? Number(saved) : 0, realNow);
  }

  now(): Date {
    return new Date(this.realNow() + this.offset * 1000);
  }

  offsetSeconds(): number {
    return this.offset;
  }

  async advance(tx: Tx, seconds: number): Promise<void> {
    const saved = Number((await tx.getSetting(OFFSET_SETTING)) ?? '0');
    const next = saved + seconds;
    await tx.putSetting(OFFSET_SETTING, String(next));
    // Taken at once: the transaction commits right after, and a clock that ran ahead of a
    // rolled-back write would only make the sandbox early, never lose acknowledged state.
    this.offset = next;
  }
}

/** The production clock: real time, never moved. */
export const systemClock: Clock = { now: () => new Date() };
