import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import { ApiError, ERR_CANNOT_DECRYPT, ERR_CARD_MISSING } from '../../kernel/errors.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { detectBrands } from '../payments/cards.js';
import { acceptedCardBrands } from './payment-methods.domain.js';

interface BinInfo {
  fundingSource: 'CREDIT' | 'DEBIT' | 'PREPAID';
  commercial: boolean;
  country: string;
}

/**
 * A small issuer table for the test cards this platform knows. Real issuer data is licensed;
 * this one only covers the documented test ranges, so unknown ranges answer without these fields.
 */
export const BIN_TABLE: Record<string, BinInfo> = {
  '411111': { fundingSource: 'CREDIT', commercial: false, country: 'US' },
  '444433': { fundingSource: 'DEBIT', commercial: false, country: 'NL' },
  '424242': { fundingSource: 'PREPAID', commercial: false, country: 'GB' },
  '403550': { fundingSource: 'CREDIT', commercial: false, country: 'FR' },
  '421234': { fundingSource: 'CREDIT', commercial: false, country: 'NL' },
  '555555': { fundingSource: 'CREDIT', commercial: false, country: 'US' },
  '555534': { fundingSource: 'CREDIT', commercial: true, country: 'GB' },
  '520128': { fundingSource: 'DEBIT', commercial: false, country: 'NL' },
  '222240': { fundingSource: 'CREDIT', commercial: false, country: 'US' },
  '370000': { fundingSource: 'CREDIT', commercial: false, country: 'US' },
  '356999': { fundingSource: 'CREDIT', commercial: false, country: 'JP' },
  '677183': { fundingSource: 'DEBIT', commercial: false, country: 'NL' },
  '670344': { fundingSource: 'DEBIT', commercial: false, country: 'BE' },
  '624303': { fundingSource: 'CREDIT', commercial: false, country: 'CN' },
};

export interface CardDetailsQuery {
  merchantAccount: string;
  cardNumber?: string;
  encryptedCardNumber?: string;
  countryCode?: string;
  supportedBrands?: string[];
}

export interface CardDetails {
  brands: Array<{ type: string; supported: boolean }>;
  fundingSource?: string;
  isCardCommercial?: boolean;
  issuingCountryCode?: string;
}

/** POST /cardDetails: brands from the leading digits, supported ones marked, issuer data for known ranges. */
export async function lookUpCard(tx: Tx, credential: Credential, query: CardDetailsQuery): Promise<CardDetails> {
  const merchant = await requireMerchantAccount(tx, credential, query.merchantAccount);
  let digits = query.cardNumber;
  if (digits === undefined && query.encryptedCardNumber !== undefined) {
    if (!query.encryptedCardNumber.startsWith('test_'))
      throw new ApiError(ERR_CANNOT_DECRYPT, { message: "Unable to decrypt data: 'encryptedCardNumber' is not a test_-prefixed test value" });
    digits = query.encryptedCardNumber.slice('test_'.length).replace(/ /g, '');
  }
  if (digits === undefined || !/^\d{6,19}$/.test(digits)) {
    throw new ApiError(ERR_CARD_MISSING, {
      message: "Missing payment method details: 'cardNumber' or 'encryptedCardNumber' with at least the first six digits",
    });
  }
  const supported = query.supportedBrands ?? (await acceptedCardBrands(tx, merchant.id, query.countryCode));
  const brands = detectBrands(digits, digits.length >= 12).map((type) => ({ type, supported: supported.includes(type) }));
  const info = BIN_TABLE[digits.slice(0, 6)];
  return info ? { brands, fundingSource: info.fundingSource, isCardCommercial: info.commercial, issuingCountryCode: info.country } : { brands };
}
