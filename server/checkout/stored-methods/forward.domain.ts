import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_CARD_MISSING, ERR_FORWARD_DESTINATION, ERR_FORWARD_FAILED } from '../../kernel/errors.js';
import { allowListOf } from '../../kernel/outbound/guard.js';
import { outboundCall, OutboundError, type OutboundLog, type OutboundResponse } from '../../kernel/outbound/client.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { type Card, type CardInput, readCard } from '../payments/cards.js';
import { newPspReference } from '../references.js';
import { cardOfToken, storeCard, tokenOf } from './tokens.domain.js';

export interface ForwardInput {
  merchantAccount: string;
  shopperReference: string;
  baseUrl: string;
  merchantReference?: string;
  storedPaymentMethodId?: string;
  paymentMethod?: CardInput;
  options?: { tokenize?: boolean; dryRun?: boolean };
  request: { httpMethod: 'post' | 'put' | 'patch'; urlSuffix?: string; credentials?: string; headers?: Record<string, string>; body: string };
}

/** The outgoing request with its placeholders replaced; it holds the card number, so it is never stored or logged. */
export interface PreparedForward {
  pspReference: string;
  storedPaymentMethodId: string | undefined;
  merchantReference: string | undefined;
  merchantAccount: string;
  target: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  dryRun: boolean;
}

export interface ForwardLimits {
  allowList: Record<string, string[]>;
  allowPrivate: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The forward request's log line (its request id). */
  log?: OutboundLog;
}

/** Replaces `{{name}}` placeholders; unknown ones stay as they are. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z.]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * First half of POST /forward, inside the transaction: finds the token (or reads the given card,
 * storing it when asked), and builds the request. Nothing is sent yet.
 */
export async function prepareForward(tx: Tx, now: Date, vault: CardVault, credential: Credential, input: ForwardInput): Promise<PreparedForward> {
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  let card: Card;
  let storedPaymentMethodId = input.storedPaymentMethodId;
  if (input.storedPaymentMethodId) {
    card = cardOfToken(vault, await tokenOf(tx, merchant.id, input.shopperReference, input.storedPaymentMethodId));
  } else if (input.paymentMethod) {
    card = readCard(input.paymentMethod);
    if (input.options?.tokenize) {
      const token = await storeCard(tx, now, vault, merchant, card, { shopperReference: input.shopperReference, recurringProcessingModel: 'CardOnFile' });
      storedPaymentMethodId = token.id;
    }
  } else {
    throw new ApiError(ERR_CARD_MISSING, { message: "Missing payment method details: give 'storedPaymentMethodId' or 'paymentMethod'" });
  }
  const values: Record<string, string> = {
    credentials: input.request.credentials ?? '',
    holderName: card.holderName ?? '',
    number: card.number,
    expiryMonth: String(card.expiryMonth).padStart(2, '0'),
    expiryYear: String(card.expiryYear),
    cvc: input.paymentMethod?.cvc ?? '',
  };
  const headers = Object.fromEntries(Object.entries(input.request.headers ?? {}).map(([k, v]) => [k, fillPlaceholders(v, values)]));
  return {
    pspReference: newPspReference(),
    storedPaymentMethodId,
    merchantReference: input.merchantReference,
    merchantAccount: merchant.id,
    target: `${input.baseUrl.replace(/\/+$/, '')}${input.request.urlSuffix ?? ''}`,
    method: input.request.httpMethod.toUpperCase(),
    headers,
    body: fillPlaceholders(input.request.body, values),
    dryRun: input.options?.dryRun === true,
  };
}

export interface ForwardResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Second half of POST /forward, outside any transaction: the one outbound client vets the
 * destination and sends; a redirect is refused rather than followed.
 */
export async function performForward(prepared: PreparedForward, limits: ForwardLimits): Promise<ForwardResult> {
  let response: OutboundResponse;
  try {
    response = await outboundCall({
      url: prepared.target,
      method: prepared.method,
      headers: prepared.headers,
      body: prepared.body,
      allowList: allowListOf(limits.allowList, prepared.merchantAccount),
      allowPrivate: limits.allowPrivate,
      timeoutMs: limits.timeoutMs,
      maxResponseBytes: limits.maxResponseBytes,
      overflow: 'fail',
      dryRun: prepared.dryRun,
      ...(limits.log && { log: limits.log }),
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.kind === 'destination') throw new ApiError(ERR_FORWARD_DESTINATION, { message: `Forward ${error.message}` });
    const message = error.kind === 'timeout' ? `The third party did not answer within ${limits.timeoutMs} ms` : `The third party ${error.message}`;
    throw new ApiError(ERR_FORWARD_FAILED, { message });
  }
  if (response.status >= 300 && response.status < 400) {
    throw new ApiError(ERR_FORWARD_DESTINATION, {
      message: `Forward destination not allowed: it answered ${response.status} with a redirect, which is not followed`,
    });
  }
  return response;
}
