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

/** A new 16-character pspReference of digits and capital letters (36^16 values: collisions are not a concern). */
export function newPspReference(): string {
  const bytes = randomSlice(16);
  let out = '';
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
