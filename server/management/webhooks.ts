import type { components, operations } from '../../generated/management.js';
import { toNotification } from '../events/notification.js';
import { sendNotification } from '../events/sender.js';
import { MANAGEMENT_BASE } from '../http/area.js';
import { baseUrlOf, pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerDeps, HandlerFactory, JsonBody } from '../http/types.js';
import type { Webhook } from '../store/types.js';
import { pageOf, paginated } from './pagination.js';
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
const base = (deps: HandlerDeps, req: Parameters<typeof baseUrlOf>[0]) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

/** GET /merchants/{merchantId}/webhooks */
export const listAllWebhooks: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const merchantId = pathParam(req, 'merchantId');
  const page = pageOf(req.query);
  const { items, total } = await deps.store.read((tx) => domain.listWebhooks(tx, credential, merchantId, page));
  const b = base(deps, req);
  res.json({ ...paginated(b, `/merchants/${merchantId}/webhooks`, page, items.map((w) => toWebhookView(w, b)), total), accountReference: merchantId });
};

/** POST /merchants/{merchantId}/webhooks */
export const setUpWebhook: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['setUpWebhook']>;
  const webhook = await deps.store.transaction((tx) => domain.setUpWebhook(tx, deps.clock.now(credential.companyId), deps.vault, credential, pathParam(req, 'merchantId'), body, policy(deps)));
  res.json(toWebhookView(webhook, base(deps, req)));
};

/** GET /merchants/{merchantId}/webhooks/{webhookId} */
export const getWebhook: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const webhook = await deps.store.read((tx) => domain.getWebhook(tx, credential, pathParam(req, 'merchantId'), pathParam(req, 'webhookId')));
  res.json(toWebhookView(webhook, base(deps, req)));
};

/** PATCH /merchants/{merchantId}/webhooks/{webhookId} */
export const updateWebhook: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['updateWebhook']>;
  const webhook = await deps.store.transaction((tx) =>
    domain.updateWebhook(tx, deps.clock.now(credential.companyId), deps.vault, credential, pathParam(req, 'merchantId'), pathParam(req, 'webhookId'), body, policy(deps)),
  );
  res.json(toWebhookView(webhook, base(deps, req)));
};

/** DELETE /merchants/{merchantId}/webhooks/{webhookId} */
export const removeWebhook: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  await deps.store.transaction((tx) => domain.removeWebhook(tx, credential, pathParam(req, 'merchantId'), pathParam(req, 'webhookId')));
  res.status(204).end();
};

/** POST /merchants/{merchantId}/webhooks/{webhookId}/generateHmac */
export const generateHmacKey: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const hmacKey = await deps.store.transaction((tx) => domain.generateHmacKey(tx, deps.clock.now(credential.companyId), deps.vault, credential, pathParam(req, 'merchantId'), pathParam(req, 'webhookId')));
  res.json({ hmacKey });
};

/** POST /merchants/{merchantId}/webhooks/{webhookId}/test: sends one test event now, outside the queue. */
export const testWebhook: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const merchantId = pathParam(req, 'merchantId');
  const webhook = await deps.store.transaction((tx) => domain.getWebhook(tx, credential, merchantId, pathParam(req, 'webhookId')));
  const custom = (req.body as JsonBody<operations['testWebhook']> | undefined)?.notification ?? {};
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
  res.json({
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
  });
};

/** GET /merchants/{merchantId}/webhooks/{webhookId}/events */
export const listWebhookEvents: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const views = await deps.store.read((tx) => domain.listWebhookEvents(tx, credential, pathParam(req, 'merchantId'), pathParam(req, 'webhookId')));
  res.json({ data: views.map(toDeliveryView) });
};

/** POST /merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend */
export const resendWebhookEvent: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const eventId = Number(pathParam(req, 'eventId'));
  const view = await deps.store.transaction((tx) => domain.resendWebhookEvent(tx, deps.clock.now(credential.companyId), credential, pathParam(req, 'merchantId'), pathParam(req, 'webhookId'), eventId));
  res.json(toDeliveryView(view));
};
