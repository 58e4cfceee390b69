import type { Request } from 'express';
import type { components } from '../../../generated/management.js';
import { toNotification } from '../../kernel/events/notification.js';
import { sendNotification } from '../../kernel/events/sender.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Webhook } from '../../store/types.js';
import { pageOf, paginated } from '../pagination.js';
import * as domain from './webhooks.domain.js';

type WebhookView = components['schemas']['Webhook'];

export function toWebhookView(w: Webhook, base: string): WebhookView {
  const self = `${base}/merchants/${w.merchantId}/webhooks/${w.id}`;
  return {
    id: w.id,
    type: w.type,
    url: w.url,
    active: w.active,
    communicationFormat: w.communicationFormat,
    ...(w.description !== null && { description: w.description }),
    ...(w.username !== null && { username: w.username }),
    hasPassword: w.encryptedPassword !== null,
    hasError: w.hasError,
    acceptsExpiredCertificate: w.acceptsExpiredCertificate,
    acceptsSelfSignedCertificate: w.acceptsSelfSignedCertificate,
    acceptsUntrustedRootCertificate: w.acceptsUntrustedRootCertificate,
    ...(w.networkType !== null && { networkType: w.networkType }),
    ...(w.encryptionProtocol !== null && { encryptionProtocol: w.encryptionProtocol }),
    _links: {
      self: { href: self },
      merchant: { href: `${base}/merchants/${w.merchantId}` },
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

const policy = (deps: HandlerDeps) => ({ allowList: deps.config.forwardAllowList, allowPrivate: deps.config.forwardAllowPrivateNetworks });
const base = (deps: HandlerDeps, req: Request) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

/** GET /merchants/{merchantId}/webhooks */
export const listAllWebhooks = operation('listAllWebhooks')(async ({ path: { merchantId }, query, caller: { credential }, req }, deps) => {
  const page = pageOf(query);
  const { items, total } = await deps.store.read((tx) => domain.listWebhooks(tx, credential, merchantId, page));
  const b = base(deps, req);
  return {
    ...paginated(
      b,
      `/merchants/${merchantId}/webhooks`,
      page,
      items.map((w) => toWebhookView(w, b)),
      total,
    ),
    accountReference: merchantId,
  };
});

/** POST /merchants/{merchantId}/webhooks */
export const setUpWebhook = operation('setUpWebhook')(async ({ body, path, caller: { credential }, req }, deps) => {
  const webhook = await deps.store.transaction((tx) =>
    domain.setUpWebhook(tx, deps.clock.now(credential.companyId), deps.vault, credential, path.merchantId, body, policy(deps)),
  );
  return toWebhookView(webhook, base(deps, req));
});

/** GET /merchants/{merchantId}/webhooks/{webhookId} */
export const getWebhook = operation('getWebhook')(async ({ path, caller: { credential }, req }, deps) => {
  const webhook = await deps.store.read((tx) => domain.getWebhook(tx, credential, path.merchantId, path.webhookId));
  return toWebhookView(webhook, base(deps, req));
});

/** PATCH /merchants/{merchantId}/webhooks/{webhookId} */
export const updateWebhook = operation('updateWebhook')(async ({ body, path, caller: { credential }, req }, deps) => {
  const webhook = await deps.store.transaction((tx) =>
    domain.updateWebhook(tx, deps.clock.now(credential.companyId), deps.vault, credential, path.merchantId, path.webhookId, body, policy(deps)),
  );
  return toWebhookView(webhook, base(deps, req));
});

/** DELETE /merchants/{merchantId}/webhooks/{webhookId} */
export const removeWebhook = operation('removeWebhook')(async ({ path, caller: { credential } }, deps) => {
  await deps.store.transaction((tx) => domain.removeWebhook(tx, credential, path.merchantId, path.webhookId));
});

/** POST /merchants/{merchantId}/webhooks/{webhookId}/generateHmac */
export const generateHmacKey = operation('generateHmacKey')(async ({ path, caller: { credential } }, deps) => {
  const hmacKey = await deps.store.transaction((tx) =>
    domain.generateHmacKey(tx, deps.clock.now(credential.companyId), deps.vault, credential, path.merchantId, path.webhookId),
  );
  return { hmacKey };
});

/** POST /merchants/{merchantId}/webhooks/{webhookId}/test: sends one test event now, outside the queue. */
export const testWebhook = operation('testWebhook')(async ({ body, path: { merchantId, webhookId }, caller: { credential } }, deps) => {
  const webhook = await deps.store.transaction((tx) => domain.getWebhook(tx, credential, merchantId, webhookId));
  const custom = body?.notification ?? {};
  const now = deps.clock.now(credential.companyId);
  const payload = JSON.stringify(
    toNotification(
      {
        eventCode: custom.eventCode ?? 'AUTHORISATION',
        success: custom.success ?? true,
        pspReference: `TEST${now.getTime().toString().slice(-12)}`,
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
      webhook.encryptedHmacKey ? deps.vault.decrypt(webhook.encryptedHmacKey) : undefined,
    ),
  );
  const result = await sendNotification(webhook, payload, deps.vault, { ...policy(deps), timeoutMs: deps.config.webhookTimeoutMs });
  return {
    data: [
      {
        merchantId,
        status: result.outcome === 'accepted' ? 'success' : 'failed',
        ...(result.statusCode !== null && { responseCode: String(result.statusCode) }),
        responseTime: `${result.durationMs} ms`,
        output: result.error && result.outcome === 'error' ? result.error : result.body,
        requestSent: payload,
      },
    ],
  };
});

/** GET /merchants/{merchantId}/webhooks/{webhookId}/events */
export const listWebhookEvents = operation('listWebhookEvents')(async ({ path, caller: { credential } }, deps) => {
  const views = await deps.store.read((tx) => domain.listWebhookEvents(tx, credential, path.merchantId, path.webhookId));
  return { data: views.map(toDeliveryView) };
});

/** POST /merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend */
export const resendWebhookEvent = operation('resendWebhookEvent')(async ({ path, caller: { credential } }, deps) => {
  const view = await deps.store.transaction((tx) =>
    domain.resendWebhookEvent(tx, deps.clock.now(credential.companyId), credential, path.merchantId, path.webhookId, path.eventId),
  );
  return toDeliveryView(view);
});
