import { operation } from '../kernel/http/handler.js';
import { ApiError, ERR_NOT_FOUND_ENTITY } from '../kernel/errors.js';
import { scopeOf } from './scope.js';
import { deliveryView } from './views.js';

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
      (webhook.merchantId === null
        ? caller.credential.merchantId === null
        : scope.merchantAccounts === null || scope.merchantAccounts.includes(webhook.merchantId));
    if (!visible) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Webhook ${path.webhookId} not found` });
    const rows = (await tx.console.webhookDeliveries(webhook.id, LIMIT)).filter(
      (d) => scope.merchantAccounts === null || scope.merchantAccounts.includes(d.merchantAccount),
    );
    const attempts = await tx.console.attemptsOfEvents(rows.map((d) => Number(d.eventId)));
    const data = rows.map((d) => deliveryView(d, d, attempts));
    return { data };
  });
});
