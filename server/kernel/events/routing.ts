import type { MerchantAccountFilter, Webhook } from '../../store/types.js';

/**
 * Whether a company webhook's filter takes in the merchant account: every account
 * (`allAccounts`), only the listed ones (`includeAccounts`), or all but the listed ones
 * (`excludeAccounts`). The caller has already established that the account is the company's.
 */
export function filterCovers(filter: MerchantAccountFilter, merchantAccount: string): boolean {
  switch (filter.type) {
    case 'allAccounts':
      return true;
    case 'includeAccounts':
      return filter.merchantAccounts.includes(merchantAccount);
    case 'excludeAccounts':
      return !filter.merchantAccounts.includes(merchantAccount);
  }
}

/** Whether the webhook receives the events of this merchant account of its company. */
export function covers(webhook: Pick<Webhook, 'merchantId' | 'filter'>, merchantAccount: string): boolean {
  if (webhook.merchantId !== null) return webhook.merchantId === merchantAccount;
  return webhook.filter !== null && filterCovers(webhook.filter, merchantAccount);
}

/** Whether the webhook wants events of this code: on its include list when it has one, and not excluded. */
export function wants(webhook: Pick<Webhook, 'includeEventCodes' | 'excludeEventCodes'>, eventCode: string): boolean {
  if (webhook.includeEventCodes && !webhook.includeEventCodes.includes(eventCode)) return false;
  return !webhook.excludeEventCodes?.includes(eventCode);
}

/**
 * The webhooks, of those that may receive the account's events, that receive this event: the
 * `standard` ones (every event this service raises is a standard event; webhooks of Adyen's other
 * types get only the test call's events).
 */
export function recipients(webhooks: Webhook[], event: { merchantAccount: string; eventCode: string }): Webhook[] {
  return webhooks.filter((w) => w.type === 'standard' && covers(w, event.merchantAccount) && wants(w, event.eventCode));
}
