import { ApiError, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import { command, operation } from '../../kernel/http/handler.js';
import type { WebhookFaults } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { sandboxOnly } from './sandbox.js';

/**
 * Faults on purpose in one webhook's deliveries (docs/webhooks.md, "Faults on purpose"): the
 * dispatcher (server/kernel/events/dispatcher.ts) reads them with every attempt. Authorized as
 * the sandbox clock is: a company-level credential (the operations' policy, decided before
 * anything is read), sandbox mode only (decided next, still before a read), and a webhook of the
 * caller's company (another company's is not found, whether it exists or not).
 */

const NO_FAULTS = { delaySeconds: 0, duplicate: false, outOfOrder: 0, failNextAttempts: 0 };

const view = (webhookId: string, faults: WebhookFaults | undefined) => {
  const { delaySeconds, duplicate, outOfOrder, failNextAttempts } = faults ?? NO_FAULTS;
  return { webhookId, delaySeconds, duplicate, outOfOrder, failNextAttempts };
};

async function checkOwnWebhook(tx: Tx, companyId: string, webhookId: string): Promise<void> {
  const webhook = await tx.webhooks.get(webhookId);
  if (!webhook || webhook.companyId !== companyId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Webhook ${webhookId} not found` });
}

/** GET /sandbox/webhooks/{webhookId}/faults: the webhook's faults and what is left of the counted ones. */
export const getSandboxWebhookFaults = operation('getSandboxWebhookFaults')(async ({ path, caller }, deps) => {
  sandboxOnly(deps);
  return deps.store.read(async (tx) => {
    await checkOwnWebhook(tx, caller.credential.companyId, path.webhookId);
    return view(path.webhookId, await tx.webhooks.faults(path.webhookId));
  });
});

/** PUT /sandbox/webhooks/{webhookId}/faults: replaces the webhook's faults (`{}` clears them). */
export const setSandboxWebhookFaults = command('setSandboxWebhookFaults')(async ({ tx, path, body, caller }, deps) => {
  sandboxOnly(deps);
  const companyId = caller.credential.companyId;
  await checkOwnWebhook(tx, companyId, path.webhookId);
  const faults: WebhookFaults = {
    webhookId: path.webhookId,
    delaySeconds: body.delaySeconds ?? 0,
    duplicate: body.duplicate ?? false,
    outOfOrder: body.outOfOrder ?? 0,
    failNextAttempts: body.failNextAttempts ?? 0,
    updatedAt: deps.clock.now(companyId).toISOString(),
  };
  await tx.webhooks.putFaults(faults);
  return view(path.webhookId, faults);
});
