import type { Insertable, Selectable } from 'kysely';
import { count, flag, jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { Page } from '../records/page.js';
import type { MerchantAccountFilter, Webhook, WebhookFaults } from '../records/webhooks.js';
import type { WebhookFaults as WebhookFaultsRow, Webhooks } from '../schema.generated.js';

const listOrNull = (value: unknown): string[] | null => (value === null || value === undefined ? null : parsed<string[]>(value));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : jsonText(value));

function filterOf(r: Selectable<Webhooks>): MerchantAccountFilter | null {
  const type = r.filterMerchantAccountType as MerchantAccountFilter['type'] | null;
  if (type === null) return null;
  return type === 'allAccounts' ? { type } : { type, merchantAccounts: listOrNull(r.filterMerchantAccounts) ?? [] };
}

const fromRow = (r: Selectable<Webhooks>): Webhook => ({
  id: r.id,
  companyId: r.companyId,
  merchantId: r.merchantId,
  filter: filterOf(r),
  includeEventCodes: listOrNull(r.includeEventCodes),
  excludeEventCodes: listOrNull(r.excludeEventCodes),
  additionalProperties:
    r.additionalProperties === null || r.additionalProperties === undefined ? null : parsed<Record<string, boolean>>(r.additionalProperties),
  hmacKeyCheckValue: r.hmacKeyCheckValue,
  type: r.type,
  url: r.url,
  active: flag(r.active),
  communicationFormat: r.communicationFormat as Webhook['communicationFormat'],
  description: r.description,
  username: r.username,
  encryptedPassword: r.encryptedPassword,
  encryptedHmacKey: r.encryptedHmacKey,
  acceptsExpiredCertificate: flag(r.acceptsExpiredCertificate),
  acceptsSelfSignedCertificate: flag(r.acceptsSelfSignedCertificate),
  acceptsUntrustedRootCertificate: flag(r.acceptsUntrustedRootCertificate),
  populateSoapActionHeader: flag(r.populateSoapActionHeader),
  networkType: r.networkType as Webhook['networkType'],
  encryptionProtocol: r.encryptionProtocol as Webhook['encryptionProtocol'],
  hasError: flag(r.hasError),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const toRow = (w: Webhook): Insertable<Webhooks> => ({
  id: w.id,
  companyId: w.companyId,
  merchantId: w.merchantId,
  type: w.type,
  url: w.url,
  active: w.active,
  communicationFormat: w.communicationFormat,
  description: w.description,
  username: w.username,
  encryptedPassword: w.encryptedPassword,
  encryptedHmacKey: w.encryptedHmacKey,
  acceptsExpiredCertificate: w.acceptsExpiredCertificate,
  acceptsSelfSignedCertificate: w.acceptsSelfSignedCertificate,
  acceptsUntrustedRootCertificate: w.acceptsUntrustedRootCertificate,
  populateSoapActionHeader: w.populateSoapActionHeader,
  networkType: w.networkType,
  encryptionProtocol: w.encryptionProtocol,
  hasError: w.hasError,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
  hmacKeyCheckValue: w.hmacKeyCheckValue,
  filterMerchantAccountType: w.filter?.type ?? null,
  filterMerchantAccounts: w.filter && w.filter.type !== 'allAccounts' ? jsonText(w.filter.merchantAccounts) : null,
  includeEventCodes: textOrNull(w.includeEventCodes),
  excludeEventCodes: textOrNull(w.excludeEventCodes),
  additionalProperties: textOrNull(w.additionalProperties),
});

const faultsFromRow = (r: Selectable<WebhookFaultsRow>): WebhookFaults => ({
  webhookId: r.webhookId,
  delaySeconds: r.delaySeconds,
  duplicate: flag(r.duplicate),
  outOfOrder: r.outOfOrder,
  failNextAttempts: r.failNextAttempts,
  updatedAt: r.updatedAt,
});

// Read with every change that reports an event: compiled once (see prepared.ts). The merchant
// account's own webhooks and every company webhook of its company (whose filters decide later).
const activeOf = prepared(({ q }, merchantId: string, companyId: string) =>
  q
    .selectFrom('webhooks')
    .selectAll()
    .where('active', '=', true)
    .where((eb) => eb.or([eb('merchantId', '=', merchantId), eb.and([eb('companyId', '=', companyId), eb('merchantId', 'is', null)])]))
    .orderBy('id'),
);

/** Who a webhook belongs to: a merchant account, or a company (company-level webhooks). */
export type WebhookOwner = { merchantId: string } | { companyId: string };

/** Webhooks of merchant accounts and companies (where events are sent); their deliveries live in the outbox. */
export function webhooksStore(db: Db) {
  const { q } = db;
  const webhooks = () => q.selectFrom('webhooks').selectAll();
  return {
    insert: async (webhook: Webhook): Promise<void> => void (await q.insertInto('webhooks').values(toRow(webhook)).execute()),
    get: async (id: string): Promise<Webhook | undefined> => {
      const row = await webhooks().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The owner's webhooks in the order they were made, a page of them with the total. */
    list: async (owner: WebhookOwner, offset: number, limit: number): Promise<Page<Webhook>> => {
      const owned = () =>
        'merchantId' in owner
          ? q.selectFrom('webhooks').where('merchantId', '=', owner.merchantId)
          : q.selectFrom('webhooks').where('companyId', '=', owner.companyId).where('merchantId', 'is', null);
      const rows = await owned().selectAll().orderBy('createdAt').orderBy('id').limit(limit).offset(offset).execute();
      const total = await owned()
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      return { items: rows.map(fromRow), total: count(total?.n) };
    },
    /**
     * The webhooks that may receive the merchant account's events now: its own active ones and
     * its company's active company webhooks (the caller applies their filters).
     */
    active: async (merchantId: string, companyId: string): Promise<Webhook[]> => (await activeOf.all(db, merchantId, companyId)).map(fromRow),
    /** Writes what can change of a webhook; its id, owner, type and creation time stay. */
    update: async (webhook: Webhook): Promise<void> => {
      const { id, companyId: _company, merchantId: _merchant, type: _type, createdAt: _created, ...changes } = toRow(webhook);
      await q.updateTable('webhooks').set(changes).where('id', '=', id).execute();
    },
    /** The sandbox faults of the webhook; undefined when it has none. */
    faults: async (webhookId: string): Promise<WebhookFaults | undefined> => {
      const row = await q.selectFrom('webhookFaults').selectAll().where('webhookId', '=', webhookId).executeTakeFirst();
      return row && faultsFromRow(row);
    },
    /** Sets the webhook's sandbox faults, replacing the ones before. */
    putFaults: async (faults: WebhookFaults): Promise<void> => {
      const { webhookId: _webhookId, ...changes } = faults;
      await q
        .insertInto('webhookFaults')
        .values(faults)
        .onConflict((oc) => oc.column('webhookId').doUpdateSet(changes))
        .execute();
    },
    /**
     * Spends one of the attempts to fail on purpose: a conditional update, so of two instances
     * (or an attempt and a request that changes the faults) each counts what the other left.
     * Whether there was one to spend.
     */
    spendFailure: async (webhookId: string): Promise<boolean> => {
      const result = await q
        .updateTable('webhookFaults')
        .set((eb) => ({ failNextAttempts: eb('failNextAttempts', '-', 1) }))
        .where('webhookId', '=', webhookId)
        .where('failNextAttempts', '>', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Ends the out-of-order fault, only if it is still `expected` (a conditional update): whether this call ended it. */
    endOutOfOrder: async (webhookId: string, expected: number): Promise<boolean> => {
      const result = await q
        .updateTable('webhookFaults')
        .set({ outOfOrder: 0 })
        .where('webhookId', '=', webhookId)
        .where('outOfOrder', '=', expected)
        .where('outOfOrder', '>', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Deletes the webhook with its delivery attempts, deliveries and faults. */
    delete: async (id: string): Promise<void> => {
      await q.deleteFrom('webhookFaults').where('webhookId', '=', id).execute();
      await q.deleteFrom('deliveryAttempts').where('webhookId', '=', id).execute();
      await q.deleteFrom('webhookDeliveries').where('webhookId', '=', id).execute();
      await q.deleteFrom('webhooks').where('id', '=', id).execute();
    },
  };
}

export type WebhooksStore = ReturnType<typeof webhooksStore>;
