/**
 * IBANs as SEPA Direct Debit needs them: the country's length, the letters and digits in place,
 * and the ISO 13616 checksum (mod 97). Spaces are allowed in what the shopper types.
 */

/** The IBAN length of each SEPA country (ISO 13616 registry). */
const SEPA_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

export const normaliseIban = (iban: string): string => iban.replace(/\s+/g, '').toUpperCase();

/** The mod-97 remainder of an IBAN moved into its check position (1 for a valid IBAN). */
function mod97(iban: string): number {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const c of moved) {
    const value = c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : c.charCodeAt(0) - 48;
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return remainder;
}

/** Why an IBAN cannot be debited by SEPA, or undefined when it can. */
export function ibanProblem(raw: string): string | undefined {
  const iban = normaliseIban(raw);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return 'an IBAN is a country code, two check digits and the account, in letters and digits';
  const length = SEPA_LENGTHS[iban.slice(0, 2)];
  if (length === undefined) return `${iban.slice(0, 2)} is not a SEPA country`;
  if (iban.length !== length) return `an IBAN of ${iban.slice(0, 2)} has ${length} characters, not ${iban.length}`;
  if (mod97(iban) !== 1) return 'the check digits do not match (mod 97)';
  return undefined;
}

/** An IBAN as the merchant may see it again: country, check digits and the last four characters. */
export const maskIban = (raw: string): string => {
  const iban = normaliseIban(raw);
  return `${iban.slice(0, 4)}${'*'.repeat(Math.max(0, iban.length - 8))}${iban.slice(-4)}`;
};
