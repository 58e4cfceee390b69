import {
  ApiError,
  ERR_CANNOT_DECRYPT,
  ERR_CARD_MISSING,
  ERR_EXPIRY_INVALID,
  ERR_EXPIRY_MISSING,
  ERR_INVALID_CARD_NUMBER,
  ERR_UNKNOWN_CARD_BRAND,
} from '../../kernel/errors.js';
import { passesLuhn } from '../../kernel/redaction.js';

// The Luhn check lives with the card-number mask, which needs it too.
export { passesLuhn };

export interface BrandRule {
  brand: string;
  prefixes: Array<string | [number, number]>;
  lengths: number[];
}

const range = (from: number, to: number, lengths: number[], brand: string): BrandRule => ({ brand, prefixes: [[from, to]], lengths });

/**
 * Issuer identification ranges of the brands the test platform knows. When several match,
 * the longest matching prefix wins (so Bancontact's 6703 beats Maestro's 6).
 */
const BRAND_RULES: BrandRule[] = [
  { brand: 'visa', prefixes: ['4'], lengths: [13, 16, 19] },
  range(51, 55, [16], 'mc'),
  range(2221, 2720, [16], 'mc'),
  { brand: 'amex', prefixes: ['34', '37'], lengths: [15] },
  { brand: 'diners', prefixes: ['36', '38', '39', '300', '301', '302', '303', '304', '305', '3095'], lengths: [14, 16] },
  { brand: 'discover', prefixes: ['6011', '65', [644, 649]], lengths: [16, 17, 18, 19] },
  range(3528, 3589, [16, 19], 'jcb'),
  { brand: 'cup', prefixes: ['62', '81'], lengths: [14, 15, 16, 17, 18, 19] },
  { brand: 'maestro', prefixes: ['50', [56, 58], '6'], lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
  { brand: 'maestrouk', prefixes: ['6759'], lengths: [16, 18, 19] },
  { brand: 'bcmc', prefixes: ['6703', '479658', '606005'], lengths: [16, 17, 18, 19] },
  { brand: 'dankort', prefixes: ['5019'], lengths: [16] },
  { brand: 'hipercard', prefixes: ['606282'], lengths: [16] },
  { brand: 'mir', prefixes: ['220'], lengths: [16, 17, 18, 19] },
  { brand: 'uatp', prefixes: ['1'], lengths: [15] },
];

function matchLength(digits: string, prefix: string | [number, number]): number {
  if (typeof prefix === 'string') return digits.startsWith(prefix) ? prefix.length : 0;
  const width = String(prefix[0]).length;
  const head = Number(digits.slice(0, width));
  return digits.length >= width && head >= prefix[0] && head <= prefix[1] ? width : 0;
}

/** The brands whose ranges match the leading digits, best match first. `checkLength` also requires a valid length. */
export function detectBrands(digits: string, checkLength = true): string[] {
  const scored = BRAND_RULES.map((rule) => ({
    brand: rule.brand,
    score: Math.max(...rule.prefixes.map((p) => matchLength(digits, p))),
    lengthOk: rule.lengths.includes(digits.length),
  })).filter((r) => r.score > 0 && (!checkLength || r.lengthOk));
  scored.sort((a, b) => b.score - a.score);
  return [...new Set(scored.map((r) => r.brand))];
}

/**
 * The brand rules as data, for the secured-fields page: the browser detects the brand and checks
 * the length by the same rules the payment is later checked by, without a second copy.
 */
export function brandRules(): ReadonlyArray<Readonly<BrandRule>> {
  return BRAND_RULES;
}

/** The card number lengths of a brand (none for a brand these rules do not know). */
export function brandLengths(brand: string): number[] {
  return BRAND_RULES.find((rule) => rule.brand === brand)?.lengths ?? [];
}

/** A card as the payment needs it. The full number lives only in this object, never in a record. */
export interface Card {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string | null;
  brand: string;
}

export interface CardInput {
  number?: string;
  expiryMonth?: string;
  expiryYear?: string;
  cvc?: string;
  holderName?: string;
  brand?: string;
  encryptedCardNumber?: string;
  encryptedExpiryMonth?: string;
  encryptedExpiryYear?: string;
  encryptedSecurityCode?: string;
}

/** The raw value of an encrypted field. Only `test_`-prefixed values can be read on this test platform. */
function decrypt(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!value.startsWith('test_')) {
    throw new ApiError(ERR_CANNOT_DECRYPT, { message: `Unable to decrypt data: '${field}' is not a test_-prefixed test value` });
  }
  return value.slice('test_'.length);
}

/** Reads, checks and brands the card of a payment request (raw fields or `test_`-prefixed encrypted ones; see docs/sandbox-test-data.md). */
export function readCard(input: CardInput): Card {
  const rawNumber = input.number ?? decrypt('encryptedCardNumber', input.encryptedCardNumber);
  const month = input.expiryMonth ?? decrypt('encryptedExpiryMonth', input.encryptedExpiryMonth);
  const year = input.expiryYear ?? decrypt('encryptedExpiryYear', input.encryptedExpiryYear);
  decrypt('encryptedSecurityCode', input.encryptedSecurityCode);
  if (rawNumber === undefined) throw new ApiError(ERR_CARD_MISSING, { message: "Missing payment method details: 'number' or 'encryptedCardNumber'" });
  const digits = rawNumber.replace(/ /g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) throw new ApiError(ERR_INVALID_CARD_NUMBER);
  const brands = detectBrands(digits);
  const brand = input.brand && brands.includes(input.brand) ? input.brand : brands[0];
  if (!brand) throw new ApiError(ERR_UNKNOWN_CARD_BRAND);
  if (month === undefined || year === undefined) throw new ApiError(ERR_EXPIRY_MISSING);
  const expiryMonth = Number(month);
  const expiryYear = Number(year);
  if (!/^\d{1,2}$/.test(month) || !/^\d{4}$/.test(year) || expiryMonth < 1 || expiryMonth > 12 || expiryYear <= 2000) {
    throw new ApiError(ERR_EXPIRY_INVALID);
  }
  return { number: digits, expiryMonth, expiryYear, holderName: input.holderName ?? null, brand };
}

/** A card is valid through the last day of its expiry month. */
export function isExpired(card: Pick<Card, 'expiryMonth' | 'expiryYear'>, now: Date): boolean {
  const firstInvalidDay = Date.UTC(card.expiryYear, card.expiryMonth, 1);
  return now.getTime() >= firstInvalidDay;
}

/** Why a payment failed: its refusalReason and refusalReasonCode, and the resultCode (Refused unless said). */
export interface Refusal {
  reason: string;
  code: string;
  /** Error and Cancelled come from Adyen's test table (test-results.ts); every other refusal is Refused. */
  resultCode?: 'Refused' | 'Error' | 'Cancelled';
  /** The raw acquirer response (`additionalData.refusalReasonRaw`) when it is not the reason itself. */
  raw?: string;
}

export const EXPIRED_CARD: Refusal = { reason: 'Expired Card', code: '6' };
export const NOT_AUTHENTICATED: Refusal = { reason: '3D Not Authenticated', code: '11' };

/** Cards that always ask for a 3D Secure challenge (the adyen-web challenge-only test card). */
export const CHALLENGE_CARDS = new Set(['4212345678910006']);
