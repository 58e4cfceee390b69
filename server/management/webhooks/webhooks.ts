import type { Request } from 'express';
import type { components } from '../../../generated/management.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Credential, Webhook } from '../../store/types.js';
import { pageOf, paginated } from '../pagination.js';
import * as domain from './webhooks.domain.js';

type WebhookView = components['schemas']['Webhook'];

/** Where the webhook lives in the API: under its merchant account, or under its company. */
const pathOf = (w: Webhook) => (w.merchantId !== null ? `/merchants/${w.merchantId}/webhooks/${w.id}` : `/companies/${w.companyId}/webhooks/${w.id}`);

export function toWebhookView(w: Webhook, base: string): WebhookView {
  const self = `${base}${pathOf(w)}`;
  const eventFilter = w.includeEventCodes !== null || w.excludeEventCodes !== null || w.additionalProperties !== null;
  return {
    id: w.id,
    type: w.type,
    url: w.url,
    active: w.active,
    communicationFormat: w.communicationFormat,
    accountReference: w.merchantId ?? w.companyId,
    ...(w.description !== null && { description: w.description }),
    ...(w.username !== null && { username: w.username }),
    ...(w.filter && {
      filterMerchantAccountType: w.filter.type,
      ...(w.filter.type !== 'allAccounts' && { filterMerchantAccounts: w.filter.merchantAccounts }),
    }),
    ...(eventFilter && {
      additionalSettings: {
        ...(w.includeEventCodes && { includeEventCodes: w.includeEventCodes as never }),
        ...(w.excludeEventCodes && { excludeEventCodes: w.excludeEventCodes as never }),
        ...(w.additionalProperties && { properties: w.additionalProperties }),
      },
    }),
    hasPassword: w.encryptedPassword !== null,
    hasError: w.hasError,
    ...(w.hmacKeyCheckValue !== null && { hmacKeyCheckValue: w.hmacKeyCheckValue }),
    acceptsExpiredCertificate: w.acceptsExpiredCertificate,
    acceptsSelfSignedCertificate: w.acceptsSelfSignedCertificate,
    acceptsUntrustedRootCertificate: w.acceptsUntrustedRootCertificate,
    populateSoapActionHeader: w.populateSoapActionHeader,
    ...(w.networkType !== null && { networkType: w.networkType }),
    ...(w.encryptionProtocol !== null && { encryptionProtocol: w.encryptionProtocol }),
    _links: {
      self: { href: self },
      ...(w.merchantId !== null ? { merchant: { href: `${base}/merchants/${w.merchantId}` } } : { company: { href: `${base}/companies/${w.companyId}` } }),
      generateHmac: { href: `${self}/generateHmac` },
      testWebhook: { href: `${self}/test` },
      events: { href: `${self}/events` },
    },
  };
}

const toDeliveryView = ({ delivery, event, attempts }: domain.DeliveryView) => ({
  eventId: event.id!,
  eventCode: event.eventCode,
  pspReference: event.pspReference,
  success: event.success,
  status: delivery.status,
  createdAt: event.createdAt,
  ...(delivery.status === 'pending' && { nextAttemptAt: delivery.nextAttemptAt }),
  attempts: attempts.map((a) => ({
    attemptedAt: a.attemptedAt,
    outcome: a.outcome,
    durationMs: a.durationMs,
    ...(a.statusCode !== null && { statusCode: a.statusCode }),
    ...(a.error !== null && { error: a.error }),
  })),
});

const policy = (deps: HandlerDeps) => ({
  allowList: deps.config.forwardAllowList,
  allowPrivate: deps.config.forwardAllowPrivateNetworks,
  allowLoopback: deps.config.webhookAllowLoopback,
});
const base = (deps: HandlerDeps, req: Request) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;
const levelOf = (path: { merchantId: string } | { companyId: string }): domain.Level =>
  'merchantId' in path ? { merchantId: path.merchantId } : { companyId: path.companyId };
const listPathOf = (level: domain.Level) => ('merchantId' in level ? `/merchants/${level.merchantId}/webhooks` : `/companies/${level.companyId}/webhooks`);

// The use cases of both levels, written once; each operation below names its level by its path.
const uses = {
  async list(deps: HandlerDeps, req: Request, credential: Credential, level: domain.Level, query: { pageNumber?: number; pageSize?: number }) {
    const page = pageOf(query);
    const { items, total } = await deps.store.read((tx) => domain.listWebhooks(tx, credential, level, page));
    const b = base(deps, req);
    const views = items.map((w) => toWebhookView(w, b));
    return { ...paginated(b, listPathOf(level), page, views, total), accountReference: 'merchantId' in level ? level.merchantId : level.companyId };
  },
  async setUp(deps: HandlerDeps, req: Request, credential: Credential, level: domain.Level, body: domain.WebhookFields & { url: string }) {
    const webhook = await deps.store.transaction((tx) =>
      domain.setUpWebhook(tx, deps.clock.now(credential.companyId), deps.vault, credential, level, body, policy(deps)),
    );
    return toWebhookView(webhook, base(deps, req));
  },
  async get(deps: HandlerDeps, req: Request, credential: Credential, level: domain.Level, webhookId: string) {
    return toWebhookView(await deps.store.read((tx) => domain.getWebhook(tx, credential, level, webhookId)), base(deps, req));
  },
  async update(deps: HandlerDeps, req: Request, credential: Credential, level: domain.Level, webhookId: string, body: domain.WebhookFields) {
    const webhook = await deps.store.transaction((tx) =>
      domain.updateWebhook(tx, deps.clock.now(credential.companyId), deps.vault, credential, level, webhookId, body, policy(deps)),
    );
    return toWebhookView(webhook, base(deps, req));
  },
  async remove(deps: HandlerDeps, credential: Credential, level: domain.Level, webhookId: string) {
    await deps.store.transaction((tx) => domain.removeWebhook(tx, credential, level, webhookId));
  },
  async generateHmac(deps: HandlerDeps, credential: Credential, level: domain.Level, webhookId: string) {
    const hmacKey = await deps.store.transaction((tx) =>
      domain.generateHmacKey(tx, deps.clock.now(credential.companyId), deps.vault, credential, level, webhookId),
    );
    return { hmacKey };
  },
  /** The events are made in a read, then sent outside it: a slow receiver holds no connection. */
  async test(deps: HandlerDeps, requestId: string, credential: Credential, level: domain.Level, webhookId: string, body: domain.TestRequest) {
    const plan = await deps.store.read((tx) => domain.planTest(tx, deps.clock.now(credential.companyId), deps.vault, credential, level, webhookId, body));
    const log = { logger: deps.logger, requestId };
    return { data: await domain.runTest(plan, deps.vault, { ...policy(deps), timeoutMs: deps.config.webhookTimeoutMs, log }) };
  },
  async events(deps: HandlerDeps, credential: Credential, level: domain.Level, webhookId: string) {
    const views = await deps.store.read((tx) => domain.listWebhookEvents(tx, credential, level, webhookId));
    return { data: views.map(toDeliveryView) };
  },
  async resend(deps: HandlerDeps, credential: Credential, level: domain.Level, webhookId: string, eventId: number) {
    const view = await deps.store.transaction((tx) =>
      domain.resendWebhookEvent(tx, deps.clock.now(credential.companyId), credential, level, webhookId, eventId),
    );
    return toDeliveryView(view);
  },
};

// Merchant level -------------------------------------------------------------------------------

/** GET /merchants/{merchantId}/webhooks */
export const listAllWebhooks = operation('listAllWebhooks')(({ path, query, caller: { credential }, req }, deps) =>
  uses.list(deps, req, credential, levelOf(path), query),
);

/** POST /merchants/{merchantId}/webhooks */
export const setUpWebhook = operation('setUpWebhook')(({ body, path, caller: { credential }, req }, deps) =>
  uses.setUp(deps, req, credential, levelOf(path), body),
);

/** GET /merchants/{merchantId}/webhooks/{webhookId} */
export const getWebhook = operation('getWebhook')(({ path, caller: { credential }, req }, deps) =>
  uses.get(deps, req, credential, levelOf(path), path.webhookId),
);

/** PATCH /merchants/{merchantId}/webhooks/{webhookId} */
export const updateWebhook = operation('updateWebhook')(({ body, path, caller: { credential }, req }, deps) =>
  uses.update(deps, req, credential, levelOf(path), path.webhookId, body),
);

/** DELETE /merchants/{merchantId}/webhooks/{webhookId} */
export const removeWebhook = operation('removeWebhook')(({ path, caller: { credential } }, deps) =>
  uses.remove(deps, credential, levelOf(path), path.webhookId),
);

/** POST /merchants/{merchantId}/webhooks/{webhookId}/generateHmac */
export const generateHmacKey = operation('generateHmacKey')(({ path, caller: { credential } }, deps) =>
  uses.generateHmac(deps, credential, levelOf(path), path.webhookId),
);

/** POST /merchants/{merchantId}/webhooks/{webhookId}/test: sends test events now, outside the queue. */
export const testWebhook = operation('testWebhook')(({ body, path, caller: { credential }, requestId }, deps) =>
  uses.test(deps, requestId, credential, levelOf(path), path.webhookId, body ?? {}),
);

/** GET /merchants/{merchantId}/webhooks/{webhookId}/events */
export const listWebhookEvents = operation('listWebhookEvents')(({ path, caller: { credential } }, deps) =>
  uses.events(deps, credential, levelOf(path), path.webhookId),
);

/** POST /merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend */
export const resendWebhookEvent = operation('resendWebhookEvent')(({ path, caller: { credential } }, deps) =>
  uses.resend(deps, credential, levelOf(path), path.webhookId, path.eventId),
);

// Company level --------------------------------------------------------------------------------

/** GET /companies/{companyId}/webhooks */
export const listAllCompanyWebhooks = operation('listAllCompanyWebhooks')(({ path, query, caller: { credential }, req }, deps) =>
  uses.list(deps, req, credential, levelOf(path), query),
);

/** POST /companies/{companyId}/webhooks */
export const setUpCompanyWebhook = operation('setUpCompanyWebhook')(({ body, path, caller: { credential }, req }, deps) =>
  uses.setUp(deps, req, credential, levelOf(path), body),
);

/** GET /companies/{companyId}/webhooks/{webhookId} */
export const getCompanyWebhook = operation('getCompanyWebhook')(({ path, caller: { credential }, req }, deps) =>
  uses.get(deps, req, credential, levelOf(path), path.webhookId),
);

/** PATCH /companies/{companyId}/webhooks/{webhookId} */
export const updateCompanyWebhook = operation('updateCompanyWebhook')(({ body, path, caller: { credential }, req }, deps) =>
  uses.update(deps, req, credential, levelOf(path), path.webhookId, body),
);

/** DELETE /companies/{companyId}/webhooks/{webhookId} */
export const removeCompanyWebhook = operation('removeCompanyWebhook')(({ path, caller: { credential } }, deps) =>
  uses.remove(deps, credential, levelOf(path), path.webhookId),
);

/** POST /companies/{companyId}/webhooks/{webhookId}/generateHmac */
export const generateCompanyHmacKey = operation('generateCompanyHmacKey')(({ path, caller: { credential } }, deps) =>
  uses.generateHmac(deps, credential, levelOf(path), path.webhookId),
);

/** POST /companies/{companyId}/webhooks/{webhookId}/test: one test event per merchant account and type. */
export const testCompanyWebhook = operation('testCompanyWebhook')(({ body, path, caller: { credential }, requestId }, deps) =>
  uses.test(deps, requestId, credential, levelOf(path), path.webhookId, body ?? {}),
);

/** GET /companies/{companyId}/webhooks/{webhookId}/events */
export const listCompanyWebhookEvents = operation('listCompanyWebhookEvents')(({ path, caller: { credential } }, deps) =>
  uses.events(deps, credential, levelOf(path), path.webhookId),
);

/** POST /companies/{companyId}/webhooks/{webhookId}/events/{eventId}/resend */
export const resendCompanyWebhookEvent = operation('resendCompanyWebhookEvent')(({ path, caller: { credential } }, deps) =>
  uses.resend(deps, credential, levelOf(path), path.webhookId, path.eventId),
);
