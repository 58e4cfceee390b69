import type { Store, Tx } from '../store/tx.js';

/**
 * The time every time-based rule uses. Time belongs to a company: in sandbox mode each company
 * can move its own clock forward (expiring its links, orders, rotated keys and retries) without
 * touching any other company's.
 */
export interface Clock {
  now(companyId: string): Date;
  /** The latest time of any company: work due on any company's clock is due by then. */
  latest(): Date;
  /** Reads every company's offset from the store (background work calls it before each round). */
  refresh(tx: Tx): Promise<void>;
  /** Takes one company's offset read from the store with something else (authentication's row). */
  observe(companyId: string, offsetSeconds: number): void;
}

/** A clock per company that can be moved forward: the sandbox time control. */
export interface AdjustableClock extends Clock {
  offsetSeconds(companyId: string): number;
  /** Moves the company's clock forward inside the caller's transaction (atomically); returns the new offset. */
  advance(tx: Tx, companyId: string, seconds: number): Promise<number>;
}

/**
 * Real time plus an offset per company that only grows. The offsets live in the store (the
 * `companies` row), so a restarted sandbox, or another server instance, keeps the time its
 * integrators moved it to. This object only caches them: when other instances share the store
 * (`Store.sharedBetweenProcesses`), authentication reads them on every request, so do the hosted
 * pages (kernel/http/fresh-clock.ts); the dispatcher reads them on every tick.
 */
export class SandboxClocks implements AdjustableClock {
  private readonly offsets = new Map<string, number>();

  private constructor(private readonly realNow: () => number) {}

  static async load(store: Store, realNow: () => number = Date.now): Promise<SandboxClocks> {
    const clocks = new SandboxClocks(realNow);
    await store.read((tx) => clocks.refresh(tx));
    return clocks;
  }

  now(companyId: string): Date {
    return new Date(this.realNow() + this.offsetSeconds(companyId) * 1000);
  }

  latest(): Date {
    return new Date(this.realNow() + Math.max(0, ...this.offsets.values()) * 1000);
  }

  offsetSeconds(companyId: string): number {
    return this.offsets.get(companyId) ?? 0;
  }

  observe(companyId: string, offsetSeconds: number): void {
    // Offsets only grow; a read that raced an advance must not move a clock back.
    if (offsetSeconds > this.offsetSeconds(companyId)) this.offsets.set(companyId, offsetSeconds);
  }

  async refresh(tx: Tx): Promise<void> {
    for (const { companyId, offsetSeconds } of await tx.companies.clockOffsets()) this.observe(companyId, offsetSeconds);
  }

  async advance(tx: Tx, companyId: string, seconds: number): Promise<number> {
    // One relative update (no read first): advances made at once, here or on another instance, all count.
    const next = await tx.companies.advanceClock(companyId, seconds);
    if (next === undefined) throw new Error(`no company ${companyId} to advance the clock of`);
    // Taken at once: the transaction commits right after, and a clock that ran ahead of a
    // rolled-back write would only make this company's sandbox early, never lose acknowledged state.
    this.observe(companyId, next);
    return next;
  }
}

/** The production clock: real time for everyone, never moved. */
export const systemClock: Clock = { now: () => new Date(), latest: () => new Date(), refresh: () => Promise.resolve(), observe: () => undefined };
