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

/**
 * A new 16-character pspReference of digits and capital letters: the creation time in
 * milliseconds (8 characters) then 8 random ones. Time first so that references made close
 * together sort close together: a new payment's key lands at the growing end of the primary-key
 * index, in pages already cached, instead of on a random page of a large table (with a million
 * payments stored, wholly random references cost about a tenth of authorise throughput on
 * SQLite). Two references collide only if made in the same millisecond with the same 8 random
 * characters (36^8, about 2.8e12, per millisecond); the time is no secret (events carry it).
 */
export function newPspReference(): string {
  const bytes = randomSlice(8);
  let out = Math.max(0, Date.now() - EPOCH_MS)
    .toString(36)
    .toUpperCase()
    .padStart(8, '0');
  for (const b of bytes) out += ALPHABET[b % 36];
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
