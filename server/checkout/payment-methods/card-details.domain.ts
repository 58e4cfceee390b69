import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import { ApiError, ERR_CANNOT_DECRYPT, ERR_CARD_MISSING } from '../../kernel/errors.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { brandLengths, detectBrands } from '../payments/cards.js';
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

/** The brands Adyen's web library asks no security code for (Bancontact), or lets the shopper leave out (Maestro). */
const CVC_POLICY: Readonly<Record<string, 'optional' | 'hidden'>> = { bcmc: 'hidden', maestro: 'optional' };

export interface BinLookupQuery {
  encryptedBin: string;
  requestId?: string;
  supportedBrands?: string[];
}

/**
 * The client-side BIN lookup Adyen's web library makes while the shopper types: the brands of the
 * leading digits by the card reader's ranges (cards.ts), best match first, `supported` when the
 * component accepts the brand, and the issuer's country for the known test ranges. The component's
 * own brands decide support (a client key's credential may reach several merchant accounts).
 */
export function lookUpBin(query: BinLookupQuery) {
  if (!query.encryptedBin.startsWith('test_'))
    throw new ApiError(ERR_CANNOT_DECRYPT, { message: "Unable to decrypt data: 'encryptedBin' is not a test_-prefixed test value" });
  const digits = query.encryptedBin.slice('test_'.length).replace(/ /g, '');
  if (!/^\d{6,19}$/.test(digits)) {
    throw new ApiError(ERR_CARD_MISSING, { message: "Missing payment method details: 'encryptedBin' with at least the first six digits" });
  }
  const supported = query.supportedBrands ?? [];
  const brands = detectBrands(digits, false).map((brand) => {
    const lengths = brandLengths(brand);
    return {
      brand,
      supported: supported.includes(brand),
      cvcPolicy: CVC_POLICY[brand] ?? ('required' as const),
      expiryDatePolicy: 'required' as const,
      enableLuhnCheck: true,
      ...(lengths.length === 1 && { panLength: lengths[0]! }),
    };
  });
  const country = BIN_TABLE[digits.slice(0, 6)]?.country;
  return { ...(query.requestId !== undefined && { requestId: query.requestId }), ...(country && { issuingCountryCode: country }), brands };
}
