import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ENTITY, invalidField } from '../../kernel/errors.js';
import { reaches } from '../../kernel/auth/credentials.js';
import { toNotification } from '../../kernel/events/notification.js';
import { covers, filterCovers } from '../../kernel/events/routing.js';
import { type SendOptions, sendNotification } from '../../kernel/events/sender.js';
import { allowListOf, hostAllowed, isLoopbackHost, isPrivateAddress } from '../../kernel/outbound/guard.js';
import type { Credential, Delivery, DeliveryAttempt, Merchant, MerchantAccountFilter, OutboxEvent, Webhook } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';

/**
 * Webhooks at both levels, one story: a merchant webhook receives its merchant account's events;
 * a company webhook receives the events of the company's merchant accounts that its filter takes
 * in. Both limit event codes the same way, sign with their own HMAC key, authenticate with their
 * own Basic credentials and tolerate only the certificate faults they accept (delivery is in
 * kernel/events; which webhooks an event goes to is kernel/events/routing.ts).
 */

/** Where a webhook operation is aimed: a merchant account's webhooks, or the company's own. */
export type Level = { merchantId: string } | { companyId: string };

/**
 * Adyen's webhook types. Every one can be set up and kept at both levels; only `standard`
 * webhooks receive this service's events (kernel/events/routing.ts), the others receive only the
 * test call's events (TEST_TYPES_BY_WEBHOOK_TYPE).
 */
export const WEBHOOK_TYPES = [
  'standard',
  'account-settings-notification',
  'banktransfer-notification',
  'boletobancario-notification',
  'directdebit-notification',
  'ach-notification-of-change-notification',
  'direct-debit-notice-of-change-notification',
  'pending-notification',
  'ideal-notification',
  'ideal-pending-notification',
  'report-notification',
  'rreq-notification',
  'terminal-settings',
  'terminal-boarding',
] as const;

export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** What a request may set. `type` is chosen when the webhook is set up (Adyen's update schemas have none). */
export interface WebhookFields {
  url?: string;
  type?: WebhookType;
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
  additionalSettings?: { includeEventCodes?: string[]; excludeEventCodes?: string[]; properties?: Record<string, boolean> };
  /** Company webhooks only (the merchant-level schemas do not have them). */
  filterMerchantAccountType?: MerchantAccountFilter['type'];
  filterMerchantAccounts?: string[];
}

export interface OutboundPolicy {
  allowList: Record<string, string[]>;
  allowPrivate: boolean;
  /** A receiver on loopback needs no allow-list entry (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

const invalid = invalidField;

/**
 * The checks a webhook URL can pass before any DNS lookup, for every merchant account whose
 * events it will receive (each account's outbound allow-list); delivery repeats them with the
 * resolved address.
 */
function checkUrl(url: string, merchantAccounts: string[], policy: OutboundPolicy): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', url, 'is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid('url', url, 'must use http or https');
  if (parsed.username || parsed.password) throw invalid('url', url, 'must not contain user info; use username and password');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (policy.allowLoopback && isLoopbackHost(host)) return;
  for (const account of merchantAccounts.length > 0 ? merchantAccounts : ['*']) {
    if (!hostAllowed(host, allowListOf(policy.allowList, account)))
      throw invalid('url', url, `${host} is not on the outbound allow-list of merchant account ${account}`);
  }
  if (!policy.allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost'))
    throw invalid('url', url, 'must not be a private, loopback or link-local address');
}

/** Only JSON is delivered: a webhook that asks for HTTP POST or SOAP would receive nothing it can read. */
function checkFormat(format: string | undefined): void {
  if (format !== undefined && format !== 'json')
    throw invalid('communicationFormat', format, 'is not delivered by this service: only json is (http and soap are not supported)');
}

function eventFilterOf(
  settings: WebhookFields['additionalSettings'],
  current?: Pick<Webhook, 'includeEventCodes' | 'excludeEventCodes' | 'additionalProperties'>,
) {
  if (settings === undefined) {
    return {
      includeEventCodes: current?.includeEventCodes ?? null,
      excludeEventCodes: current?.excludeEventCodes ?? null,
      additionalProperties: current?.additionalProperties ?? null,
    };
  }
  const include = settings.includeEventCodes?.length ? [...new Set(settings.includeEventCodes)] : null;
  const exclude = settings.excludeEventCodes?.length ? [...new Set(settings.excludeEventCodes)] : null;
  const both = include?.find((code) => exclude?.includes(code));
  if (both) throw invalid('additionalSettings.excludeEventCodes', both, 'names an event code that includeEventCodes also names');
  return { includeEventCodes: include, excludeEventCodes: exclude, additionalProperties: settings.properties ?? null };
}

/** The company's merchant accounts (every one: a company has a handful, not thousands). */
const merchantsOf = async (tx: Tx, companyId: string): Promise<Merchant[]> => (await tx.merchants.list(companyId, 0, 10_000)).items;

/**
 * A company webhook's filter from the request (over the current one, for an update): the listed
 * accounts must be the company's, and the caller must reach every account the webhook would
 * cover (a company credential limited to some accounts cannot route the others' events).
 */
async function filterFor(
  tx: Tx,
  credential: Credential,
  companyId: string,
  fields: WebhookFields,
  current: MerchantAccountFilter | null,
): Promise<{ filter: MerchantAccountFilter; covered: Merchant[] }> {
  const type = fields.filterMerchantAccountType ?? current?.type;
  if (!type) throw invalid('filterMerchantAccountType', '', 'is required for a company webhook');
  const merchants = await merchantsOf(tx, companyId);
  let filter: MerchantAccountFilter;
  if (type === 'allAccounts') {
    if (fields.filterMerchantAccounts?.length)
      throw invalid(
        'filterMerchantAccounts',
        fields.filterMerchantAccounts.join(','),
        'names accounts although filterMerchantAccountType allAccounts covers every account: leave it out',
      );
    filter = { type };
  } else {
    const listed = fields.filterMerchantAccounts ?? (current && current.type !== 'allAccounts' ? current.merchantAccounts : []);
    if (listed.length === 0) throw invalid('filterMerchantAccounts', '', `is required when filterMerchantAccountType is ${type}`);
    const unknown = listed.find((id) => !merchants.some((m) => m.id === id));
    if (unknown !== undefined) throw invalid('filterMerchantAccounts', unknown, `is not a merchant account of company ${companyId}`);
    filter = { type, merchantAccounts: [...new Set(listed)] };
  }
  const covered = merchants.filter((m) => filterCovers(filter, m.id));
  const unreached = covered.find((m) => !reaches(credential, m));
  if (unreached) throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the credential does not reach merchant account ${unreached.id}` });
  return { filter, covered };
}

async function checkLevel(tx: Tx, credential: Credential, level: Level): Promise<{ companyId: string; merchantId: string | null }> {
  if ('merchantId' in level) {
    const merchant = await visibleMerchant(tx, credential, level.merchantId);
    return { companyId: merchant.companyId, merchantId: merchant.id };
  }
  // The policy admits only a company-level credential of this company; said again here so that
  // no use of this module can reach another company's webhooks.
  if (credential.merchantId !== null || credential.companyId !== level.companyId)
    throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Company ${level.companyId} not found` });
  return { companyId: level.companyId, merchantId: null };
}

async function webhookOf(tx: Tx, credential: Credential, level: Level, webhookId: string): Promise<Webhook> {
  const owner = await checkLevel(tx, credential, level);
  const webhook = await tx.webhooks.get(webhookId);
  if (!webhook || webhook.companyId !== owner.companyId || webhook.merchantId !== owner.merchantId)
    throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Webhook ${webhookId} not found` });
  return webhook;
}

/** POST /merchants/{merchantId}/webhooks and POST /companies/{companyId}/webhooks */
export async function setUpWebhook(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  level: Level,
  fields: WebhookFields & { url: string },
  policy: OutboundPolicy,
): Promise<Webhook> {
  const owner = await checkLevel(tx, credential, level);
  checkFormat(fields.communicationFormat);
  const scope = owner.merchantId === null ? await filterFor(tx, credential, owner.companyId, fields, null) : undefined;
  checkUrl(fields.url, scope ? scope.covered.map((m) => m.id) : [owner.merchantId!], policy);
  const webhook: Webhook = {
    id: `S2-${randomBytes(6).toString('hex').toUpperCase()}`,
    companyId: owner.companyId,
    merchantId: owner.merchantId,
    filter: scope?.filter ?? null,
    ...eventFilterOf(fields.additionalSettings),
    hmacKeyCheckValue: null,
    type: fields.type ?? 'standard',
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

export async function listWebhooks(tx: Tx, credential: Credential, level: Level, page: PageRequest) {
  await checkLevel(tx, credential, level);
  return tx.webhooks.list(level, (page.pageNumber - 1) * page.pageSize, page.pageSize);
}

export const getWebhook = webhookOf;

/** PATCH: the given fields change, the rest stay. */
export async function updateWebhook(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  level: Level,
  webhookId: string,
  fields: WebhookFields,
  policy: OutboundPolicy,
): Promise<Webhook> {
  const webhook = await webhookOf(tx, credential, level, webhookId);
  checkFormat(fields.communicationFormat);
  const scope = webhook.merchantId === null ? await filterFor(tx, credential, webhook.companyId, fields, webhook.filter) : undefined;
  // The URL is checked again when it or the accounts it serves change.
  if (fields.url !== undefined || scope) checkUrl(fields.url ?? webhook.url, scope ? scope.covered.map((m) => m.id) : [webhook.merchantId!], policy);
  // The type stays what it was set up as (the update schemas have no `type`).
  const { password, additionalSettings, filterMerchantAccountType: _filter, filterMerchantAccounts: _accounts, type: _type, ...rest } = fields;
  const given = <K extends keyof typeof rest>(key: K, fallback: Webhook[K & keyof Webhook]) => rest[key] ?? fallback;
  const updated: Webhook = {
    ...webhook,
    filter: scope?.filter ?? webhook.filter,
    ...eventFilterOf(additionalSettings, webhook),
    url: given('url', webhook.url),
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

export async function removeWebhook(tx: Tx, credential: Credential, level: Level, webhookId: string): Promise<void> {
  await webhookOf(tx, credential, level, webhookId);
  await tx.webhooks.delete(webhookId);
}

/**
 * Identifies an HMAC key without revealing it: the first 8 hexadecimal characters of the
 * HMAC-SHA256 of an empty message under the key (a receiver holding the key can compute it).
 */
export const hmacKeyCheckValue = (hmacKey: string): string =>
  createHmac('sha256', Buffer.from(hmacKey, 'hex')).update('').digest('hex').slice(0, 8).toUpperCase();

/** A new 32-byte HMAC key, shown once; kept encrypted because the service must sign with it. */
export async function generateHmacKey(tx: Tx, now: Date, vault: CardVault, credential: Credential, level: Level, webhookId: string): Promise<string> {
  const webhook = await webhookOf(tx, credential, level, webhookId);
  const key = randomBytes(32).toString('hex').toUpperCase();
  await tx.webhooks.update({ ...webhook, encryptedHmacKey: vault.encrypt(key), hmacKeyCheckValue: hmacKeyCheckValue(key), updatedAt: now.toISOString() });
  return key;
}

// ---------------------------------------------------------------------------------------------
// The test call
// ---------------------------------------------------------------------------------------------

/**
 * The test events each webhook type can be sent (Adyen's lists), the first one by default; CUSTOM
 * is made from `notification`. A type not named here has no test events.
 */
export const TEST_TYPES_BY_WEBHOOK_TYPE: Partial<Record<string, readonly string[]>> = {
  standard: [
    'AUTHORISATION',
    'CHARGEBACK_REVERSED',
    'ORDER_CLOSED',
    'ORDER_OPENED',
    'PAIDOUT_REVERSED',
    'PAYOUT_THIRDPARTY',
    'REFUNDED_REVERSED',
    'REFUND_WITH_DATA',
    'REPORT_AVAILABLE',
    'CUSTOM',
  ],
  'banktransfer-notification': ['PENDING'],
  'report-notification': ['REPORT_AVAILABLE'],
  'ideal-notification': ['AUTHORISATION'],
  'pending-notification': ['PENDING'],
};

/**
 * The test events asked for, checked against the webhook's type: by default CUSTOM when a
 * notification is given to a standard webhook, else the type's first test event.
 */
function testTypesFor(webhook: Webhook, body: TestRequest): string[] {
  const allowed = TEST_TYPES_BY_WEBHOOK_TYPE[webhook.type];
  const testable = Object.keys(TEST_TYPES_BY_WEBHOOK_TYPE).join(', ');
  if (!allowed) throw invalid('types', (body.types ?? []).join(','), `a ${webhook.type} webhook has no test events (only ${testable} webhooks can be tested)`);
  if (!body.types?.length) return [body.notification && allowed.includes('CUSTOM') ? 'CUSTOM' : allowed[0]!];
  const types = [...new Set(body.types)];
  const refused = types.find((t) => !allowed.includes(t));
  if (refused !== undefined) throw invalid('types', refused, `is not a test event of a ${webhook.type} webhook (${allowed.join(', ')})`);
  return types;
}

/** Adyen tests at most 20 merchant accounts of a company webhook at once. */
const MAX_TEST_ACCOUNTS = 20;

export interface CustomNotification {
  amount?: { currency: string; value: number };
  eventCode?: string;
  eventDate?: string;
  merchantReference?: string;
  paymentMethod?: string;
  reason?: string;
  success?: boolean;
}

export interface TestRequest {
  merchantIds?: string[];
  notification?: CustomNotification;
  types?: string[];
}

export interface TestPlan {
  webhook: Webhook;
  targets: Array<{ merchantId: string; payload: string }>;
}

export interface TestResult {
  merchantId: string;
  status: 'success' | 'failed';
  responseCode?: string;
  responseTime: string;
  output: string;
  requestSent: string;
}

/** The merchant accounts a test goes to: those named (each covered by the webhook), or every one it covers. */
async function testAccounts(tx: Tx, credential: Credential, webhook: Webhook, named: string[] | undefined): Promise<string[]> {
  if (webhook.merchantId !== null) return [webhook.merchantId];
  const merchants = (await merchantsOf(tx, webhook.companyId)).filter((m) => reaches(credential, m));
  if (named?.length) {
    const outside = named.find((id) => !merchants.some((m) => m.id === id && covers(webhook, m.id)));
    if (outside !== undefined) throw invalid('merchantIds', outside, 'is not a merchant account this webhook covers');
    return [...new Set(named)];
  }
  const covered = merchants.filter((m) => covers(webhook, m.id)).map((m) => m.id);
  if (covered.length === 0) throw invalid('merchantIds', '', 'the webhook covers no merchant account to test');
  if (covered.length > MAX_TEST_ACCOUNTS)
    throw invalid('merchantIds', '', `the webhook covers ${covered.length} merchant accounts: name at most ${MAX_TEST_ACCOUNTS}`);
  return covered;
}

/**
 * POST …/webhooks/{webhookId}/test, first half (in a transaction): which events go to which
 * account, each made and signed now (testTypesFor says which events a webhook's type may be sent).
 */
export async function planTest(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  level: Level,
  webhookId: string,
  body: TestRequest,
): Promise<TestPlan> {
  const webhook = await webhookOf(tx, credential, level, webhookId);
  const types = testTypesFor(webhook, body);
  const accounts = await testAccounts(tx, credential, webhook, body.merchantIds);
  const hmacKey = webhook.encryptedHmacKey ? vault.decrypt(webhook.encryptedHmacKey) : undefined;
  const targets = accounts.flatMap((merchantId, a) =>
    types.map((type, t) => {
      const custom = type === 'CUSTOM' ? (body.notification ?? {}) : { eventCode: type };
      const payload = toNotification(
        {
          eventCode: custom.eventCode ?? 'AUTHORISATION',
          success: custom.success ?? true,
          pspReference: `TEST${(now.getTime() + a * types.length + t).toString().slice(-12)}`,
          originalReference: null,
          merchantAccount: merchantId,
          merchantReference: custom.merchantReference ?? 'testMerchantRef1',
          currency: custom.amount?.currency ?? 'EUR',
          value: custom.amount?.value ?? 1000,
          eventDate: custom.eventDate ?? now.toISOString(),
          reason: custom.reason ?? '',
          paymentMethod: custom.paymentMethod ?? 'visa',
          additionalData: { test: 'true' },
        },
        hmacKey,
      );
      return { merchantId, payload: JSON.stringify(payload) };
    }),
  );
  return { webhook, targets };
}

/**
 * Second half, outside any transaction: each event is sent, one after the other, through the
 * same outbound client and checks as real deliveries; `success` is a 2xx answer.
 */
export async function runTest(plan: TestPlan, vault: CardVault, options: SendOptions): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const { merchantId, payload } of plan.targets) {
    const result = await sendNotification(plan.webhook, merchantId, payload, vault, options);
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    results.push({
      merchantId,
      status: success ? 'success' : 'failed',
      ...(result.statusCode !== null && { responseCode: String(result.statusCode) }),
      responseTime: `${result.durationMs} ms`,
      output: result.outcome === 'error' && result.error ? result.error : result.body,
      requestSent: payload,
    });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Delivery history (this service's addition)
// ---------------------------------------------------------------------------------------------

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
export async function listWebhookEvents(tx: Tx, credential: Credential, level: Level, webhookId: string): Promise<DeliveryView[]> {
  await webhookOf(tx, credential, level, webhookId);
  const views = await Promise.all((await tx.outbox.deliveries(webhookId, 100)).map((d) => viewOf(tx, d)));
  return views.filter((v): v is DeliveryView => v !== undefined);
}

/** Queues an event again, at the end of the webhook's queue, with a fresh retry budget. */
export async function resendWebhookEvent(tx: Tx, now: Date, credential: Credential, level: Level, webhookId: string, eventId: number): Promise<DeliveryView> {
  await webhookOf(tx, credential, level, webhookId);
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
