import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import { ApiError, ERR_FIELD_INVALID, ERR_TOKEN_NOT_FOUND } from '../../kernel/errors.js';
import type { Credential, Merchant, RecurringProcessingModel, StoredPaymentMethod } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { type Card, type CardInput, isExpired, readCard } from '../payments/cards.js';
import { newPspReference } from '../references.js';

export interface TokenInput {
  merchantAccount: string;
  shopperReference: string;
  shopperEmail?: string;
  recurringProcessingModel: RecurringProcessingModel;
  paymentMethod: CardInput & { encryptedCard?: string };
}

/** Stores a checked card as a token and records the RECURRING_CONTRACT event that announces it. */
export async function storeCard(
  tx: Tx,
  now: Date,
  vault: CardVault,
  merchant: Merchant,
  card: Card,
  owner: { shopperReference: string; shopperEmail?: string | undefined; recurringProcessingModel: RecurringProcessingModel; originalReference?: string },
): Promise<StoredPaymentMethod> {
  const token: StoredPaymentMethod = {
    id: newPspReference(),
    companyId: merchant.companyId,
    merchantAccount: merchant.id,
    shopperReference: owner.shopperReference,
    shopperEmail: owner.shopperEmail ?? null,
    brand: card.brand,
    cardBin: card.number.slice(0, 6),
    lastFour: card.number.slice(-4),
    expiryMonth: String(card.expiryMonth),
    expiryYear: String(card.expiryYear),
    holderName: card.holderName,
    recurringProcessingModel: owner.recurringProcessingModel,
    encryptedNumber: vault.encrypt(card.number),
    createdAt: now.toISOString(),
  };
  await tx.storedMethods.insert(token);
  await recordEvent(tx, now, {
    companyId: merchant.companyId,
    merchantAccount: merchant.id,
    eventCode: 'RECURRING_CONTRACT',
    pspReference: token.id,
    originalReference: owner.originalReference ?? null,
    merchantReference: owner.shopperReference,
    currency: 'EUR',
    value: 0,
    success: true,
    paymentMethod: card.brand,
    additionalData: {
      'recurring.recurringDetailReference': token.id,
      'recurring.shopperReference': owner.shopperReference,
      shopperReference: owner.shopperReference,
      storedPaymentMethodId: token.id,
      recurringProcessingModel: owner.recurringProcessingModel,
    },
  });
  return token;
}

/** POST /storedPaymentMethods */
export async function createToken(tx: Tx, now: Date, vault: CardVault, credential: Credential, input: TokenInput): Promise<StoredPaymentMethod> {
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  if (input.paymentMethod.encryptedCard !== undefined) {
    throw new ApiError(ERR_FIELD_INVALID, { message: "Invalid field 'paymentMethod.encryptedCard': send the separate encrypted fields instead" });
  }
  const card = readCard(input.paymentMethod);
  if (isExpired(card, now)) throw new ApiError(ERR_FIELD_INVALID, { message: "Invalid field 'paymentMethod': the card has expired" });
  return storeCard(tx, now, vault, merchant, card, input);
}

/** A token of this shopper on this merchant account; anyone else's is not found. */
export async function tokenOf(tx: Tx, merchantAccount: string, shopperReference: string | undefined, id: string): Promise<StoredPaymentMethod> {
  const token = await tx.storedMethods.get(id);
  if (!token || token.merchantAccount !== merchantAccount || token.shopperReference !== shopperReference) throw new ApiError(ERR_TOKEN_NOT_FOUND);
  return token;
}

/** GET /storedPaymentMethods */
export async function listTokens(tx: Tx, credential: Credential, merchantAccount: string, shopperReference: string): Promise<StoredPaymentMethod[]> {
  await requireMerchantAccount(tx, credential, merchantAccount);
  return tx.storedMethods.list(merchantAccount, shopperReference);
}

/** DELETE /storedPaymentMethods/{id} */
export async function deleteToken(tx: Tx, credential: Credential, merchantAccount: string, shopperReference: string, id: string): Promise<void> {
  await requireMerchantAccount(tx, credential, merchantAccount);
  const token = await tokenOf(tx, merchantAccount, shopperReference, id);
  // Conditional on the row still being there: of two deletes at once, the second is told it is gone.
  if (!(await tx.storedMethods.delete(token.id))) throw new ApiError(ERR_TOKEN_NOT_FOUND);
}

/** The card of a token, for a payment or a forward. The number leaves the vault only here. */
export function cardOfToken(vault: CardVault, token: StoredPaymentMethod): Card {
  return {
    number: vault.decrypt(token.encryptedNumber),
    expiryMonth: Number(token.expiryMonth),
    expiryYear: Number(token.expiryYear),
    holderName: token.holderName,
    brand: token.brand,
  };
}
