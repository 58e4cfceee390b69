import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random bytes drawn from the system's generator 4 KiB at a time (one call per 256 references, not one each). */
let pool: Buffer = Buffer.alloc(0);
let used = 0;
function randomSlice(size: number): Buffer {
  if (used + size > pool.length) {
    pool = randomBytes(4096);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}

/** Milliseconds are counted from here, so that eight base-36 digits last until 2109. */
const EPOCH_MS = Date.UTC(2020, 0, 1);

/** This process's reference counter (two base-36 digits), starting anywhere. */
let sequence = randomInt(0, 36 ** 2);

/** `value` in base 36 (digits and capital letters), zero-padded to `width`. */
const base36 = (value: number, width: number): string => value.toString(36).toUpperCase().padStart(width, '0');

/**
 * A new 16-character pspReference of digits and capital letters: the creation time in
 * milliseconds (8 characters), this process's counter (2), then 6 random characters. Time first
 * so that references made close together sort close together: a new payment's key lands at the
 * growing end of the primary-key index, in pages already cached, instead of on a random page of a
 * large table (with a million payments stored, wholly random references cost about a tenth of
 * authorise throughput on SQLite). The counter makes references of one process distinct (up to
 * 1 296 in a millisecond, far beyond what one process makes); two processes collide only with the
 * same millisecond, counter and 6 random characters (36^6, about 2.2e9). The time is no secret:
 * events carry it. `at` is for loading history (the benchmark's stored payments).
 */
export function newPspReference(at: number = Date.now()): string {
  sequence = (sequence + 1) % 36 ** 2;
  let out = base36(Math.max(0, at - EPOCH_MS), 8) + base36(sequence, 2);
  for (const b of randomSlice(6)) out += ALPHABET[b % 36];
  return out;
}

/** A six-digit authorisation code. */
export function newAuthCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Opaque order data handed to the shopper's client; only its holder can pay towards the order. */
export function newOrderData(): string {
  return `Ab02b4c0!${randomBytes(32).toString('base64url')}`;
}
