import { randomBytes } from 'node:crypto';
import { hostAllowed, isPrivateAddress } from '../../kernel/outbound/guard.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_NOT_FOUND_ENTITY, invalidField } from '../../kernel/errors.js';
import type { Credential, Delivery, DeliveryAttempt, OutboxEvent, Webhook } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { isIP } from 'node:net';
import { visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';

export interface WebhookFields {
  url?: string;
  type?: 'standard';
  active?: boolean;
  communicationFormat?: 'http' | 'json' | 'soap';
  description?: string;
  username?: string;
  password?: string;
  acceptsExpiredCertificate?: boolean;
  acceptsSelfSignedCertificate?: boolean;
  acceptsUntrustedRootCertificate?: boolean;
  populateSoapActionHeader?: boolean;
  networkType?: 'local' | 'public';
  encryptionProtocol?: 'HTTP' | 'TLSv1.2' | 'TLSv1.3';
}

export interface OutboundPolicy {
  allowList: Record<string, string[]>;
  allowPrivate: boolean;
}

const invalid = invalidField;

/** The checks a webhook URL can pass before any DNS lookup; delivery repeats them with the resolved address. */
function checkUrl(url: string, merchantId: string, policy: OutboundPolicy): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', url, 'is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid('url', url, 'must use http or https');
  if (parsed.username || parsed.password) throw invalid('url', url, 'must not contain user info; use username and password');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const allowed = [...(policy.allowList[merchantId] ?? []), ...(policy.allowList['*'] ?? [])];
  if (!hostAllowed(host, allowed)) throw invalid('url', url, `${host} is not on the merchant account's outbound allow-list`);
  if (!policy.allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost'))
    throw invalid('url', url, 'must not be a private, loopback or link-local address');
}

function checkFormat(format: string | undefined): void {
  if (format !== undefined && format !== 'json') throw invalid('communicationFormat', format, 'only json is delivered by this service');
}

async function webhookOf(tx: Tx, credential: Credential, merchantId: string, webhookId: string): Promise<Webhook> {
  await visibleMerchant(tx, credential, merchantId);
  const webhook = await tx.webhooks.get(webhookId);
  if (!webhook || webhook.merchantId !== merchantId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Webhook ${webhookId} not found` });
  return webhook;
}

/** POST /merchants/{merchantId}/webhooks */
export async function setUpWebhook(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  merchantId: string,
  fields: WebhookFields & { url: string },
  policy: OutboundPolicy,
): Promise<Webhook> {
  const merchant = await visibleMerchant(tx, credential, merchantId);
  checkFormat(fields.communicationFormat);
  checkUrl(fields.url, merchant.id, policy);
  const webhook: Webhook = {
    id: `S2-${randomBytes(6).toString('hex').toUpperCase()}`,
    companyId: merchant.companyId,
    merchantId: merchant.id,
    type: 'standard',
    url: fields.url,
    active: fields.active ?? true,
    communicationFormat: 'json',
    description: fields.description ?? null,
    username: fields.username ?? null,
    encryptedPassword: fields.password ? vault.encrypt(fields.password) : null,
    encryptedHmacKey: null,
    acceptsExpiredCertificate: fields.acceptsExpiredCertificate ?? false,
    acceptsSelfSignedCertificate: fields.acceptsSelfSignedCertificate ?? false,
    acceptsUntrustedRootCertificate: fields.acceptsUntrustedRootCertificate ?? false,
    populateSoapActionHeader: fields.populateSoapActionHeader ?? false,
    networkType: fields.networkType ?? null,
    encryptionProtocol: fields.encryptionProtocol ?? null,
    hasError: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.webhooks.insert(webhook);
  return webhook;
}

export async function listWebhooks(tx: Tx, credential: Credential, merchantId: string, page: PageRequest) {
  await visibleMerchant(tx, credential, merchantId);
  return tx.webhooks.list(merchantId, (page.pageNumber - 1) * page.pageSize, page.pageSize);
}

export const getWebhook = webhookOf;

/** PATCH: the given fields change, the rest stay. */
export async function updateWebhook(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  merchantId: string,
  webhookId: string,
  fields: WebhookFields,
  policy: OutboundPolicy,
): Promise<Webhook> {
  const webhook = await webhookOf(tx, credential, merchantId, webhookId);
  checkFormat(fields.communicationFormat);
  if (fields.url !== undefined) checkUrl(fields.url, merchantId, policy);
  const { password, ...rest } = fields;
  const given = <K extends keyof typeof rest>(key: K, fallback: Webhook[K & keyof Webhook]) => rest[key] ?? fallback;
  const updated: Webhook = {
    ...webhook,
    url: given('url', webhook.url),
    type: given('type', webhook.type),
    active: given('active', webhook.active),
    communicationFormat: given('communicationFormat', webhook.communicationFormat),
    description: given('description', webhook.description),
    username: given('username', webhook.username),
    acceptsExpiredCertificate: given('acceptsExpiredCertificate', webhook.acceptsExpiredCertificate),
    acceptsSelfSignedCertificate: given('acceptsSelfSignedCertificate', webhook.acceptsSelfSignedCertificate),
    acceptsUntrustedRootCertificate: given('acceptsUntrustedRootCertificate', webhook.acceptsUntrustedRootCertificate),
    populateSoapActionHeader: given('populateSoapActionHeader', webhook.populateSoapActionHeader),
    networkType: given('networkType', webhook.networkType),
    encryptionProtocol: given('encryptionProtocol', webhook.encryptionProtocol),
    ...(password !== undefined && { encryptedPassword: password ? vault.encrypt(password) : null }),
    updatedAt: now.toISOString(),
  };
  await tx.webhooks.update(updated);
  return updated;
}

export async function removeWebhook(tx: Tx, credential: Credential, merchantId: string, webhookId: string): Promise<void> {
  await webhookOf(tx, credential, merchantId, webhookId);
  await tx.webhooks.delete(webhookId);
}

/** A new 32-byte HMAC key, shown once; kept encrypted because the service must sign with it. */
export async function generateHmacKey(tx: Tx, now: Date, vault: CardVault, credential: Credential, merchantId: string, webhookId: string): Promise<string> {
  const webhook = await webhookOf(tx, credential, merchantId, webhookId);
  const key = randomBytes(32).toString('hex').toUpperCase();
  await tx.webhooks.update({ ...webhook, encryptedHmacKey: vault.encrypt(key), updatedAt: now.toISOString() });
  return key;
}

export interface DeliveryView {
  delivery: Delivery;
  event: OutboxEvent;
  attempts: DeliveryAttempt[];
}

async function viewOf(tx: Tx, delivery: Delivery): Promise<DeliveryView | undefined> {
  const event = await tx.outbox.getEvent(delivery.eventId);
  return event ? { delivery, event, attempts: await tx.outbox.attempts(delivery.webhookId, delivery.eventId) } : undefined;
}

/** The latest events queued for the webhook, with their attempts. */
export async function listWebhookEvents(tx: Tx, credential: Credential, merchantId: string, webhookId: string): Promise<DeliveryView[]> {
  await webhookOf(tx, credential, merchantId, webhookId);
  const views = await Promise.all((await tx.outbox.deliveries(webhookId, 100)).map((d) => viewOf(tx, d)));
  return views.filter((v): v is DeliveryView => v !== undefined);
}

/** Queues an event again, at the end of the webhook's queue, with a fresh retry budget. */
export async function resendWebhookEvent(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  webhookId: string,
  eventId: number,
): Promise<DeliveryView> {
  await webhookOf(tx, credential, merchantId, webhookId);
  const delivery = await tx.outbox.getDelivery(webhookId, eventId);
  if (!delivery) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Event ${eventId} was not queued for webhook ${webhookId}` });
  const again: Delivery = {
    ...delivery,
    status: 'pending',
    attempts: 0,
    queueSeq: await tx.outbox.nextQueueSeq(),
    nextAttemptAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.outbox.updateDelivery(again);
  return (await viewOf(tx, again))!;
}
