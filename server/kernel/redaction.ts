/**
 * What never reaches a log line or the stored request log: the one list of secret field names,
 * and the card-number mask for free text. The logger (pino's redaction) and the request log
 * (kernel/http/request-recording.ts) both read it, so a secret added here is kept out of both.
 */

/** Field names whose values are secrets (compared case-insensitively by `redactJson`). */
export const SECRET_FIELDS = [
  'authorization',
  'x-api-key',
  'apiKey',
  'password',
  'hmacKey',
  'number',
  'cvc',
  'cvv',
  'securityCode',
  'expiryMonth',
  'expiryYear',
  'encryptedCardNumber',
  'encryptedSecurityCode',
  'encryptedExpiryMonth',
  'encryptedExpiryYear',
  'encryptedPassword',
  'encryptedHmacKey',
  'iban',
  'cookie',
  'clientSecret',
  'paymentData',
  'sessionData',
  'threeDS2Token',
  'passphrase',
  'psk',
  'eapPwd',
  'eapClientPwd',
  'eapClientKey',
  'passcode',
  'adminMenuPin',
  'refundPin',
  'screenLockPin',
  'txnPin',
] as const;

export const REDACTED = '[REDACTED]';

const SECRET = new Set(SECRET_FIELDS.map((name) => name.toLowerCase()));

/** Whether a field of this name holds a secret: the list above, and anything `encrypted…` (card fields, stored secrets). */
export function isSecretField(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET.has(lower) || lower.startsWith('encrypted');
}

/** 13 to 19 digits, possibly grouped by single spaces or dashes, not part of a longer number. */
const CARD_LIKE = /(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])/g;

/** Luhn check of a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Masks what looks like a card number inside any text (a reference, a description, a receiver's
 * answer): 13 to 19 digits that pass the Luhn check keep only their last four. A number that
 * merely looks like one (an epoch in milliseconds that passes Luhn) is masked too: better a
 * masked timestamp than a stored card.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(CARD_LIKE, (match) => {
    const digits = match.replace(/[ -]/g, '');
    return passesLuhn(digits) ? `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}` : match;
  });
}

/**
 * Whether a JSON text as JSON.stringify writes it may hold something `redactJson` would change: a
 * field named as a secret, or what CARD_LIKE takes for a card number. A text without either comes out of
 * redactJson unchanged, so the request log keeps it as it is without parsing and walking it.
 */
const MAY_HOLD_SECRETS = new RegExp(
  `"(?:${SECRET_FIELDS.map((name) => name.replace(/[-.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|encrypted[^"]*)"\\s*:|${CARD_LIKE.source}`,
  'i',
);
export const mayHoldSecrets = (json: string): boolean => MAY_HOLD_SECRETS.test(json);

/** A copy of a parsed JSON value with every secret field replaced and card numbers masked in every string. */
export function redactJson(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value !== 'object' || value === null) return value;
  // Deeper than any body of these APIs: cut rather than walk an attacker's nesting.
  if (depth > 32) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSecretField(key) ? REDACTED : redactJson(item, depth + 1);
  }
  return out;
}

/** A query string (without `?`) with secret parameters replaced and card numbers masked. */
export function redactQuery(query: string): string {
  const params = new URLSearchParams(query);
  const out = new URLSearchParams();
  for (const [key, value] of params) out.append(key, isSecretField(key) ? REDACTED : maskCardNumbers(value));
  return out.toString();
}
