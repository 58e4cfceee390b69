import { type Insertable, type Selectable, sql } from 'kysely';
import { flag, jsonText, paged, parsed } from '../codec.js';
import type { Db } from '../db.js';
import type { User } from '../records/accounts.js';
import type { Page } from '../records/page.js';
import type { Users } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const fromRow = (r: Selectable<Users>): User => ({
  ...r,
  active: flag(r.active),
  roles: parsed<string[]>(r.roles),
  accountGroups: parsed<string[]>(r.accountGroups),
  associatedMerchantAccounts: parsed<string[]>(r.associatedMerchantAccounts),
});

const toRow = (u: User): Insertable<Users> => ({
  id: u.id,
  companyId: u.companyId,
  merchantId: u.merchantId,
  username: u.username,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  active: u.active,
  roles: jsonText(u.roles),
  accountGroups: jsonText(u.accountGroups),
  associatedMerchantAccounts: jsonText(u.associatedMerchantAccounts),
  timeZoneCode: u.timeZoneCode,
  loginMethod: u.loginMethod,
  createdAt: u.createdAt,
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
        .onConflict((oc) => oc.columns(['companyId', 'username']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    get: async (id: string): Promise<User | undefined> => {
      const row = await q.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Writes what an update may change: everything but the identity, the level, the user name and the creation time. */
    update: async (user: User): Promise<void> => {
      const { id: _id, companyId: _c, merchantId: _m, username: _u, createdAt: _t, ...changed } = toRow(user);
      await q.updateTable('users').set(changed).where('id', '=', user.id).execute();
    },
    /**
     * Company users (merchantId null) or the users of one merchant account, in identifier order;
     * `username` keeps those whose user name contains it (case-insensitive).
     */
    list: async (companyId: string, merchantId: string | null, username: string | undefined, offset: number, limit: number): Promise<Page<User>> => {
      const ofCompany = q.selectFrom('users').where('companyId', '=', companyId);
      const level = merchantId === null ? ofCompany.where('merchantId', 'is', null) : ofCompany.where('merchantId', '=', merchantId);
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
