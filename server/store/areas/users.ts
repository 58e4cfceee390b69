import { type Insertable, type Selectable, sql } from 'kysely';
import { flag, jsonText, paged, parsed } from '../codec.js';
import type { Db } from '../db.js';
import type { User } from '../records/accounts.js';
import type { Page } from '../records/page.js';
import type { Users } from '../schema.generated.js';

const fromRow = (r: Selectable<Users>): User => ({
  id: r.id,
  companyId: r.company_id,
  merchantId: r.merchant_id,
  username: r.username,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  active: flag(r.active),
  roles: parsed<string[]>(r.roles),
  accountGroups: parsed<string[]>(r.account_groups),
  associatedMerchantAccounts: parsed<string[]>(r.associated_merchant_accounts),
  timeZoneCode: r.time_zone_code,
  loginMethod: r.login_method,
  createdAt: r.created_at,
});

const toRow = (u: User): Insertable<Users> => ({
  id: u.id,
  company_id: u.companyId,
  merchant_id: u.merchantId,
  username: u.username,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  active: u.active,
  roles: jsonText(u.roles),
  account_groups: jsonText(u.accountGroups),
  associated_merchant_accounts: jsonText(u.associatedMerchantAccounts),
  time_zone_code: u.timeZoneCode,
  login_method: u.loginMethod,
  created_at: u.createdAt,
});

/** `%text%` for LIKE, with the pattern characters of `text` taken literally (escaped with `\`). */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Customer Area users of companies and merchant accounts. */
export function usersStore(db: Db) {
  const { q } = db;
  return {
    /** Inserts the user unless its user name is taken in its company (by a concurrent request too): false then. */
    insert: async (user: User): Promise<boolean> => {
      const result = await q
        .insertInto('users')
        .values(toRow(user))
        .onConflict((oc) => oc.columns(['company_id', 'username']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    get: async (id: string): Promise<User | undefined> => {
      const row = await q.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Writes what an update may change: everything but the identity, the level, the user name and the creation time. */
    update: async (user: User): Promise<void> => {
      const { id: _id, company_id: _c, merchant_id: _m, username: _u, created_at: _t, ...changed } = toRow(user);
      await q.updateTable('users').set(changed).where('id', '=', user.id).execute();
    },
    /**
     * Company users (merchantId null) or the users of one merchant account, in identifier order;
     * `username` keeps those whose user name contains it (case-insensitive).
     */
    list: async (companyId: string, merchantId: string | null, username: string | undefined, offset: number, limit: number): Promise<Page<User>> => {
      const ofCompany = q.selectFrom('users').where('company_id', '=', companyId);
      const level = merchantId === null ? ofCompany.where('merchant_id', 'is', null) : ofCompany.where('merchant_id', '=', merchantId);
      const matching = username ? level.where(sql<boolean>`lower(username) like ${containing(username)} escape '\\'`) : level;
      return paged(
        matching.select((eb) => eb.fn.countAll().as('n')),
        matching.selectAll().orderBy('id').limit(limit).offset(offset),
        fromRow,
      );
    },
  };
}

export type UsersStore = ReturnType<typeof usersStore>;
