import type { Insertable, Selectable } from 'kysely';
import { count, flag } from '../codec.js';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { WebhooksTable } from '../schema.js';
import type { Page, Webhook } from '../types.js';

const fromRow = (r: Selectable<WebhooksTable>): Webhook => ({
  id: r.id,
  companyId: r.company_id,
  merchantId: r.merchant_id,
  type: 'standard',
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

const toRow = (w: Webhook): Insertable<WebhooksTable> => ({
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
});

// Read with every change that reports an event: compiled once (see prepared.ts).
const activeOf = prepared(({ q }, merchantId: string) =>
  q.selectFrom('webhooks').selectAll().where('merchant_id', '=', merchantId).where('active', '=', true).orderBy('id'),
);

/** Webhooks of merchant accounts (where their events are sent); their deliveries live in the outbox. */
export function webhooksStore(db: Db) {
  const { q } = db;
  const webhooks = () => q.selectFrom('webhooks').selectAll();
  return {
    insert: async (webhook: Webhook): Promise<void> => void (await q.insertInto('webhooks').values(toRow(webhook)).execute()),
    get: async (id: string): Promise<Webhook | undefined> => {
      const row = await webhooks().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The merchant account's webhooks in the order they were made, a page of them with the total. */
    list: async (merchantId: string, offset: number, limit: number): Promise<Page<Webhook>> => {
      const rows = await webhooks().where('merchant_id', '=', merchantId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
      const total = await q
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return { items: rows.map(fromRow), total: count(total?.n) };
    },
    /** The webhooks that receive the merchant account's events now. */
    active: async (merchantId: string): Promise<Webhook[]> => (await activeOf.all(db, merchantId)).map(fromRow),
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
