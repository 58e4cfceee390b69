import type { Insertable, Selectable } from 'kysely';
import { count, flag, jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { Page } from '../records/page.js';
import type { MerchantAccountFilter, Webhook } from '../records/webhooks.js';
import type { Webhooks } from '../schema.generated.js';

const listOrNull = (value: unknown): string[] | null => (value === null || value === undefined ? null : parsed<string[]>(value));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : jsonText(value));

function filterOf(r: Selectable<Webhooks>): MerchantAccountFilter | null {
  const type = r.filter_merchant_account_type as MerchantAccountFilter['type'] | null;
  if (type === null) return null;
  return type === 'allAccounts' ? { type } : { type, merchantAccounts: listOrNull(r.filter_merchant_accounts) ?? [] };
}

const fromRow = (r: Selectable<Webhooks>): Webhook => ({
  id: r.id,
  companyId: r.company_id,
  merchantId: r.merchant_id,
  filter: filterOf(r),
  includeEventCodes: listOrNull(r.include_event_codes),
  excludeEventCodes: listOrNull(r.exclude_event_codes),
  additionalProperties:
    r.additional_properties === null || r.additional_properties === undefined ? null : parsed<Record<string, boolean>>(r.additional_properties),
  hmacKeyCheckValue: r.hmac_key_check_value,
  type: r.type,
  url: r.url,
  active: flag(r.active),
  communicationFormat: r.communication_format as Webhook['communicationFormat'],
  description: r.description,
  username: r.username,
  encryptedPassword: r.encrypted_password,
  encryptedHmacKey: r.encrypted_hmac_key,
  acceptsExpiredCertificate: flag(r.accepts_expired_certificate),
  acceptsSelfSignedCertificate: flag(r.accepts_self_signed_certificate),
  acceptsUntrustedRootCertificate: flag(r.accepts_untrusted_root_certificate),
  populateSoapActionHeader: flag(r.populate_soap_action_header),
  networkType: r.network_type as Webhook['networkType'],
  encryptionProtocol: r.encryption_protocol as Webhook['encryptionProtocol'],
  hasError: flag(r.has_error),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRow = (w: Webhook): Insertable<Webhooks> => ({
  id: w.id,
  company_id: w.companyId,
  merchant_id: w.merchantId,
  type: w.type,
  url: w.url,
  active: w.active,
  communication_format: w.communicationFormat,
  description: w.description,
  username: w.username,
  encrypted_password: w.encryptedPassword,
  encrypted_hmac_key: w.encryptedHmacKey,
  accepts_expired_certificate: w.acceptsExpiredCertificate,
  accepts_self_signed_certificate: w.acceptsSelfSignedCertificate,
  accepts_untrusted_root_certificate: w.acceptsUntrustedRootCertificate,
  populate_soap_action_header: w.populateSoapActionHeader,
  network_type: w.networkType,
  encryption_protocol: w.encryptionProtocol,
  has_error: w.hasError,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
  hmac_key_check_value: w.hmacKeyCheckValue,
  filter_merchant_account_type: w.filter?.type ?? null,
  filter_merchant_accounts: w.filter && w.filter.type !== 'allAccounts' ? jsonText(w.filter.merchantAccounts) : null,
  include_event_codes: textOrNull(w.includeEventCodes),
  exclude_event_codes: textOrNull(w.excludeEventCodes),
  additional_properties: textOrNull(w.additionalProperties),
});

// Read with every change that reports an event: compiled once (see prepared.ts). The merchant
// account's own webhooks and every company webhook of its company (whose filters decide later).
const activeOf = prepared(({ q }, merchantId: string, companyId: string) =>
  q
    .selectFrom('webhooks')
    .selectAll()
    .where('active', '=', true)
    .where((eb) => eb.or([eb('merchant_id', '=', merchantId), eb.and([eb('company_id', '=', companyId), eb('merchant_id', 'is', null)])]))
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
          ? q.selectFrom('webhooks').where('merchant_id', '=', owner.merchantId)
          : q.selectFrom('webhooks').where('company_id', '=', owner.companyId).where('merchant_id', 'is', null);
      const rows = await owned().selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
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
      const { id, company_id: _company, merchant_id: _merchant, type: _type, created_at: _created, ...changes } = toRow(webhook);
      await q.updateTable('webhooks').set(changes).where('id', '=', id).execute();
    },
    /** Deletes the webhook with its delivery attempts and deliveries. */
    delete: async (id: string): Promise<void> => {
      await q.deleteFrom('delivery_attempts').where('webhook_id', '=', id).execute();
      await q.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      await q.deleteFrom('webhooks').where('id', '=', id).execute();
    },
  };
}

export type WebhooksStore = ReturnType<typeof webhooksStore>;
