import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { giftCardBalance, readGiftCard } from '../payments/gift-cards.js';
import { newPspReference } from '../references.js';

export interface BalanceCheckInput {
  merchantAccount: string;
  amount: Money;
  paymentMethod: Record<string, string>;
  selectedBrand?: string;
}

export interface BalanceCheck {
  pspReference: string;
  resultCode: 'Success' | 'NotEnoughBalance' | 'Failed';
  balance: Money;
  refusalReason?: string;
}

/**
 * POST /paymentMethods/balance: the sandbox gift card's balance against the amount. A card
 * that is unknown, has another PIN or holds another currency fails with a zero balance in the
 * amount's currency (nothing about a card is told without its PIN).
 */
export async function checkGiftCardBalance(tx: Tx, credential: Credential, input: BalanceCheckInput): Promise<BalanceCheck> {
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  const pspReference = newPspReference();
  const failed = (refusalReason: string): BalanceCheck => ({
    pspReference,
    resultCode: 'Failed',
    balance: { currency: input.amount.currency, value: 0 },
    refusalReason,
  });
  const reading = readGiftCard(input.paymentMethod, input.selectedBrand);
  if (!reading.known) return failed(reading.reason === 'pin' ? 'PIN is not valid' : 'Gift card is not known');
  if (reading.card.balance.currency !== input.amount.currency) return failed(`The gift card holds ${reading.card.balance.currency}`);
  const balance = await giftCardBalance(tx, merchant.companyId, reading.card);
  return { pspReference, resultCode: balance.value >= input.amount.value ? 'Success' : 'NotEnoughBalance', balance };
}
