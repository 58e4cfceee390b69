import { randomBytes } from 'node:crypto';
import { requireMerchantAccount, reaches } from '../../kernel/auth/credentials.js';
import {
  ApiError,
  ERR_EXPIRES_AT_INVALID,
  ERR_EXPIRES_AT_TOO_LATE,
  ERR_LINK_EXPIRED,
  ERR_LINK_NOT_FOUND,
  ERR_LINK_NOT_PAYABLE,
  ERR_METADATA_KEY_SIZE,
  ERR_METADATA_SIZE,
  ERR_RECURRING_MODEL_REQUIRED,
} from '../../kernel/errors.js';
import type { Credential, PaymentLink } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { keptFields } from '../kept-fields.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_LINK_LIFETIME_MS = DAY_MS;
export const MAX_LINK_LIFETIME_MS = 70 * DAY_MS;
export const MAX_METADATA_PAIRS = 20;
export const MAX_METADATA_KEY_LENGTH = 20;
export const LINK_ID_METADATA_KEY = 'checkout.linkId';

export interface LinkInput {
  merchantAccount: string;
  reference: string;
  amount: Money;
  expiresAt?: string;
  reusable?: boolean;
  metadata?: Record<string, string>;
  storePaymentMethodMode?: 'askForConsent' | 'disabled' | 'enabled';
  recurringProcessingModel?: string;
  telephoneNumber?: string;
  fundRecipient?: { paymentMethod?: unknown };
  [field: string]: unknown;
}

const newLinkId = () => `PL${randomBytes(8).toString('hex').toUpperCase()}`;

/** The link rules a schema cannot say: expiry at most 70 days ahead, metadata limits (177/178), recurring model with stored methods. */
function checkLinkRules(input: LinkInput, now: Date): Date {
  const metadata = input.metadata ?? {};
  if (Object.keys(metadata).length > MAX_METADATA_PAIRS) {
    throw new ApiError(ERR_METADATA_SIZE, { message: `Metadata size exceeds limit: at most ${MAX_METADATA_PAIRS} key-value pairs` });
  }
  const longKey = Object.keys(metadata).find((key) => key.length > MAX_METADATA_KEY_LENGTH);
  if (longKey)
    throw new ApiError(ERR_METADATA_KEY_SIZE, {
      message: `Metadata key size exceeds limit: '${longKey}' is longer than ${MAX_METADATA_KEY_LENGTH} characters`,
    });
  const mode = input.storePaymentMethodMode;
  if ((mode === 'askForConsent' || mode === 'enabled') && !input.recurringProcessingModel) {
    throw new ApiError(ERR_RECURRING_MODEL_REQUIRED, {
      message: `Required field 'recurringProcessingModel' is not provided: storePaymentMethodMode ${mode} needs it`,
    });
  }
  const expiresAt = input.expiresAt === undefined ? new Date(now.getTime() + DEFAULT_LINK_LIFETIME_MS) : new Date(input.expiresAt);
  if (expiresAt.getTime() <= now.getTime()) throw new ApiError(ERR_EXPIRES_AT_INVALID);
  if (expiresAt.getTime() > now.getTime() + MAX_LINK_LIFETIME_MS) {
    throw new ApiError(ERR_EXPIRES_AT_TOO_LATE, { message: 'expiresAt is greater than the allowed date: at most 70 days after creation' });
  }
  return expiresAt;
}

/**
 * POST /paymentLinks: every request field is kept and answered back; a telephone number that
 * could not be submitted for authentication and a fund recipient's card are not (kept-fields.ts).
 */
export async function createLink(tx: Tx, now: Date, credential: Credential, request: LinkInput): Promise<PaymentLink> {
  const input = keptFields(request);
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  const expiresAt = checkLinkRules(input, now);
  const id = newLinkId();
  const { expiresAt: _e, reusable, ...fields } = input;
  if (fields.metadata && LINK_ID_METADATA_KEY in fields.metadata) fields.metadata = { ...fields.metadata, [LINK_ID_METADATA_KEY]: id };
  const link: PaymentLink = {
    id,
    companyId: merchant.companyId,
    merchantAccount: merchant.id,
    reference: input.reference,
    fields,
    status: 'active',
    reusable: reusable ?? false,
    expiresAt: expiresAt.toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.links.insert(link);
  return link;
}

/** A link as it stands now: an active link whose time has passed becomes expired (and is stored so). */
export async function currentLink(tx: Tx, now: Date, id: string): Promise<PaymentLink | undefined> {
  // Locked: its status and usage decide whether it may be paid, and paying it changes them.
  const link = await tx.links.getForUpdate(id);
  if (!link) return undefined;
  if ((link.status === 'active' || link.status === 'paymentPending') && Date.parse(link.expiresAt) <= now.getTime()) {
    const expired: PaymentLink = { ...link, status: 'expired', updatedAt: now.toISOString() };
    await tx.links.update(expired);
    return expired;
  }
  return link;
}

/** GET /paymentLinks/{linkId}: a link of a merchant account the credential reaches. */
export async function getLink(tx: Tx, now: Date, credential: Credential, id: string): Promise<PaymentLink> {
  const link = await currentLink(tx, now, id);
  const merchant = link ? await tx.merchants.get(link.merchantAccount) : undefined;
  if (!link || !merchant || !reaches(credential, merchant)) throw new ApiError(ERR_LINK_NOT_FOUND, { message: `PaymentLink ${id} not found` });
  return link;
}

/** PATCH /paymentLinks/{linkId}: the only change is to `expired`; a completed link stays completed. */
export async function expireLink(tx: Tx, now: Date, credential: Credential, id: string): Promise<PaymentLink> {
  const link = await getLink(tx, now, credential, id);
  if (link.status === 'expired') return link;
  if (link.status === 'completed' || link.status === 'paid') throw new ApiError(ERR_LINK_NOT_PAYABLE);
  const expired: PaymentLink = { ...link, status: 'expired', updatedAt: now.toISOString() };
  await tx.links.update(expired);
  return expired;
}

/** The link a shopper pays with, if it can still be paid. */
export async function payableLink(tx: Tx, now: Date, id: string): Promise<PaymentLink> {
  const link = await currentLink(tx, now, id);
  if (!link) throw new ApiError(ERR_LINK_NOT_FOUND);
  if (link.status === 'expired') throw new ApiError(ERR_LINK_EXPIRED);
  if (link.status === 'completed' || link.status === 'paid') throw new ApiError(ERR_LINK_NOT_PAYABLE);
  return link;
}

/** After a payment of the link reached a result: a non-reusable link completes with its first authorised payment. */
export async function recordLinkPayment(tx: Tx, now: Date, link: PaymentLink, resultCode: string): Promise<PaymentLink> {
  let status: PaymentLink['status'];
  if (resultCode === 'Authorised') status = link.reusable ? 'active' : 'completed';
  else if (resultCode === 'RedirectShopper' || resultCode === 'Pending' || resultCode === 'Received') status = link.reusable ? 'active' : 'paymentPending';
  else status = 'active';
  if (status === link.status) return link;
  const updated: PaymentLink = { ...link, status, updatedAt: now.toISOString() };
  await tx.links.update(updated);
  return updated;
}

/** The credential a shopper acts with on a hosted page: it reaches exactly the link's merchant account. */
export function shopperActor(companyId: string, merchantAccount: string): Credential {
  return {
    id: 'hosted-page',
    companyId,
    merchantId: merchantAccount,
    username: 'hosted-page',
    description: 'shopper on a hosted page',
    active: true,
    roles: [],
    allowedIpAddresses: [],
    associatedMerchantAccounts: [],
    clientKey: '',
    createdAt: '',
  };
}
