import http from 'node:http';
import https from 'node:https';
import { requireMerchantAccount } from '../auth/credentials.domain.js';
import type { CardVault } from '../crypto/card-vault.js';
import { ApiError, ERR_CARD_MISSING, ERR_FORWARD_DESTINATION, ERR_FORWARD_FAILED } from '../http/errors.js';
import type { Credential, Tx } from '../store/types.js';
import { type Card, type CardInput, readCard } from './cards.js';
import { type Destination, vetDestination } from './destination.js';
import { newPspReference } from './references.js';
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

function send(destination: Destination, prepared: PreparedForward, limits: ForwardLimits): Promise<ForwardResult> {
  const client = destination.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      destination.url,
      {
        method: prepared.method,
        headers: { ...prepared.headers, 'content-length': String(Buffer.byteLength(prepared.body)) },
        // Connect to the address that was vetted, whatever DNS says now.
        lookup: (_host, _options, callback) => callback(null, destination.address, destination.family),
        timeout: limits.timeoutMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.destroy();
          reject(new ApiError(ERR_FORWARD_DESTINATION, { message: `Forward destination not allowed: it answered ${status} with a redirect, which is not followed` }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxResponseBytes) {
            response.destroy();
            reject(new ApiError(ERR_FORWARD_FAILED, { message: `The third party's response is larger than ${limits.maxResponseBytes} bytes` }));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', () => reject(new ApiError(ERR_FORWARD_FAILED)));
      },
    );
    request.on('timeout', () => request.destroy(new ApiError(ERR_FORWARD_FAILED, { message: `The third party did not answer within ${limits.timeoutMs} ms` })));
    request.on('error', (error) => reject(error instanceof ApiError ? error : new ApiError(ERR_FORWARD_FAILED, { message: `The third party could not be reached (${(error as NodeJS.ErrnoException).code ?? 'error'})` })));
    request.end(prepared.body);
  });
}

/** Second half of POST /forward, outside any transaction: vets the destination and sends. */
export async function performForward(prepared: PreparedForward, limits: ForwardLimits): Promise<ForwardResult> {
  const allowList = [...(limits.allowList[prepared.merchantAccount] ?? []), ...(limits.allowList['*'] ?? [])];
  const destination = await vetDestination(prepared.target, allowList, limits.allowPrivate);
  if (prepared.dryRun) return { status: 0, headers: {}, body: '' };
  return send(destination, prepared, limits);
}
