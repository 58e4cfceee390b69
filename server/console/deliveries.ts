import type { components } from '../../generated/console.js';
import { operation } from '../kernel/http/handler.js';
import { ApiError, ERR_NOT_FOUND_ENTITY } from '../kernel/errors.js';
import { scopeOf } from './scope.js';

type Delivery = components['schemas']['ConsoleDelivery'];

/** The deliveries a webhook keeps for the console (as management's list of its events). */
const LIMIT = 100;

/**
 * GET /webhooks/{webhookId}/deliveries: a webhook of the credential's company; a merchant webhook
 * only for who reaches its merchant account, and of a company webhook only the events of the
 * merchant accounts the credential reaches.
 */
export const listConsoleWebhookDeliveries = operation('listConsoleWebhookDeliveries')(async ({ path, caller }, deps) => {
  const scope = scopeOf(caller.credential);
  return deps.store.read(async (tx) => {
    const webhook = await tx.webhooks.get(path.webhookId);
    const visible =
      webhook !== undefined &&
      webhook.companyId === scope.companyId &&
      (webhook.merchantId === null ? caller.credential.merchantId === null : scope.merchantAccounts === null || scope.merchantAccounts.includes(webhook.merchantId));
    if (!visible) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Webhook ${path.webhookId} not found` });
    const rows = (await tx.console.webhookDeliveries(webhook.id, LIMIT)).filter(
      (d) => scope.merchantAccounts === null || scope.merchantAccounts.includes(d.merchantAccount),
    );
    const attempts = await tx.console.attemptsOfEvents(rows.map((d) => Number(d.eventId)));
    const data = rows.map(
      (d): Delivery => ({
        webhookId: d.webhookId,
        eventId: Number(d.eventId),
        eventCode: d.eventCode,
        pspReference: d.pspReference,
        merchantAccount: d.merchantAccount,
        status: d.status as Delivery['status'],
        createdAt: d.createdAt,
        ...(d.status === 'pending' && { nextAttemptAt: d.nextAttemptAt }),
        attempts: attempts
          .filter((a) => a.webhookId === d.webhookId && Number(a.eventId) === Number(d.eventId))
          .map((a) => ({
            attemptedAt: a.attemptedAt,
            outcome: a.outcome as Delivery['attempts'][number]['outcome'],
            durationMs: a.durationMs,
            ...(a.statusCode !== null && { statusCode: a.statusCode }),
            ...(a.responseExcerpt !== null && { responseBody: a.responseExcerpt }),
            ...(a.error !== null && { error: a.error }),
          })),
      }),
    );
    return { data };
  });
});
