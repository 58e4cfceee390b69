import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';

/**
 * The sandbox's gift cards: fixed numbers, PINs and starting balances (docs/sandbox-test-data.md lists them).
 * A card's balance is its starting balance less what authorised, uncancelled payments with it
 * took (refunds give back), counted per company: one company's payments never spend another's
 * card. Gift card numbers are not card numbers (no Luhn check, no brand ranges): the provider
 * comes from `brand` (or from `type`, as in Adyen's balance example).
 */
export interface TestGiftCard {
  brand: string;
  number: string;
  pin: string;
  balance: Money;
}

export const TEST_GIFT_CARDS: readonly TestGiftCard[] = [
  // The card of Adyen's own balance-check example.
  { brand: 'givex', number: '4126491073027401', pin: '737', balance: { currency: 'EUR', value: 5000 } },
  { brand: 'givex', number: '6036283997595793321', pin: '1234', balance: { currency: 'EUR', value: 10000 } },
  { brand: 'givex', number: '6036280000000000000', pin: '1234', balance: { currency: 'EUR', value: 0 } },
  { brand: 'svs', number: '6006491286999921374', pin: '1111', balance: { currency: 'EUR', value: 2500 } },
  { brand: 'valuelink', number: '7777182708544835', pin: '2416', balance: { currency: 'USD', value: 7500 } },
];

/** The providers a gift card payment may name (as `brand`, or as `type` in a balance check). */
export const GIFT_CARD_BRANDS = ['givex', 'svs', 'valuelink', 'fiserv', 'genericgiftcard', 'todo_giftcard'];

export interface GiftCardFields {
  type?: unknown;
  brand?: unknown;
  number?: unknown;
  encryptedCardNumber?: unknown;
  cvc?: unknown;
  encryptedSecurityCode?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** A raw value, or the test value behind an encrypted field's `test_` prefix. */
const plain = (raw: unknown, encrypted: unknown): string | undefined => {
  const value = text(raw) ?? text(encrypted);
  return value?.startsWith('test_') ? value.slice('test_'.length) : value;
};

export type GiftCardReading = { known: true; card: TestGiftCard } | { known: false; reason: 'unknown' | 'pin'; brand: string; number: string };

/** Which sandbox gift card the fields name, and whether the PIN is right. */
export function readGiftCard(fields: GiftCardFields, selectedBrand?: string): GiftCardReading {
  const type = text(fields.type);
  const brand = text(fields.brand) ?? (type && type !== 'giftcard' ? type : undefined) ?? selectedBrand ?? '';
  const number = (plain(fields.number, fields.encryptedCardNumber) ?? '').replace(/ /g, '');
  const card = TEST_GIFT_CARDS.find((c) => c.brand === brand && c.number === number);
  if (!card) return { known: false, reason: 'unknown', brand, number };
  if (plain(fields.cvc, fields.encryptedSecurityCode) !== card.pin) return { known: false, reason: 'pin', brand, number };
  return { known: true, card };
}

/** What is left on a sandbox gift card for the company now. */
export async function giftCardBalance(tx: Tx, companyId: string, card: TestGiftCard): Promise<Money> {
  const spent = await tx.payments.giftCardSpent(companyId, card.brand, card.number.slice(-4));
  return { currency: card.balance.currency, value: Math.max(0, card.balance.value - spent) };
}
