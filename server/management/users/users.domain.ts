import { randomBytes } from 'node:crypto';
import { reaches } from '../../kernel/auth/credentials.js';
import { ApiError, invalidField, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { Credential, Page, User } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany, visibleMerchant } from '../accounts/accounts.domain.js';
import { checkedMerchantAccounts } from '../credentials/credentials.domain.js';
import type { PageRequest } from '../pagination.js';

/**
 * Customer Area users of a company or of one merchant account. This service has no Customer
 * Area: a user is a record that can be created, read and changed as Adyen's Management API
 * allows. Adyen creates a user without a password and emails an activation link; here no email
 * is sent and nothing secret is stored.
 */

/** Where users are named: a company's or a merchant account's (the path of the operation). */
export type UsersPath = { companyId: string } | { merchantId: string };

export interface UserInput {
  email: string;
  username: string;
  name: { firstName: string; lastName: string };
  roles?: string[] | undefined;
  accountGroups?: string[] | undefined;
  associatedMerchantAccounts?: string[] | undefined;
  timeZoneCode?: string | undefined;
  loginMethod?: string | undefined;
}

export interface UserChange {
  email?: string | undefined;
  name?: { firstName?: string | undefined; lastName?: string | undefined } | null | undefined;
  roles?: string[] | undefined;
  accountGroups?: string[] | undefined;
  associatedMerchantAccounts?: string[] | undefined;
  timeZoneCode?: string | undefined;
  loginMethod?: string | undefined;
  active?: boolean | undefined;
}

/** The time zone of a user who names none. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** Adyen's login methods. SSO needs single sign-on set up with Adyen first, which no company here has. */
const LOGIN_METHODS = ['Email', 'Username & account'];

function checkedTimeZone(value: string): string {
  if (/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(value)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return value;
    } catch {
      // not a time zone this runtime knows: refused below
    }
  }
  throw invalidField('timeZoneCode', value, `${value} is not a tz database time zone name (for example Europe/Amsterdam)`);
}

function checkedLoginMethod(value: string): string {
  if (value === 'SSO') throw invalidField('loginMethod', value, 'SSO needs single sign-on set up for the company, which it is not');
  if (!LOGIN_METHODS.includes(value)) throw invalidField('loginMethod', value, `${value} is not one of ${LOGIN_METHODS.join(', ')}`);
  return value;
}

/**
 * Merchant accounts of the company (422 otherwise) that the calling credential reaches (403
 * otherwise): a credential limited to some merchant accounts cannot give a user more.
 */
async function checkedUserMerchantAccounts(tx: Tx, caller: Credential, companyId: string, ids: readonly string[]): Promise<string[]> {
  const checked = await checkedMerchantAccounts(tx, companyId, ids);
  for (const id of checked) {
    const merchant = await tx.merchants.get(id);
    if (!merchant || !reaches(caller, merchant)) {
      throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the credential does not reach merchant account ${id}` });
    }
  }
  return checked;
}

/** The company or merchant account the path names, as the caller may see it. */
async function levelOf(tx: Tx, caller: Credential, path: UsersPath): Promise<{ companyId: string; merchantId: string | null }> {
  if ('companyId' in path) return { companyId: (await visibleCompany(tx, caller, path.companyId)).id, merchantId: null };
  const merchant = await visibleMerchant(tx, caller, path.merchantId);
  return { companyId: merchant.companyId, merchantId: merchant.id };
}

/** GET /companies/{companyId}/users and GET /merchants/{merchantId}/users */
export async function listUsers(tx: Tx, caller: Credential, path: UsersPath, username: string | undefined, page: PageRequest): Promise<Page<User>> {
  const level = await levelOf(tx, caller, path);
  return tx.users.list(level.companyId, level.merchantId, username, (page.pageNumber - 1) * page.pageSize, page.pageSize);
}

/** A user of the company (company level) or of the merchant account the path names; any other is not found. */
export async function userAt(tx: Tx, caller: Credential, path: UsersPath & { userId: string }): Promise<User> {
  const level = await levelOf(tx, caller, path);
  const user = await tx.users.get(path.userId);
  if (!user || user.companyId !== level.companyId || user.merchantId !== level.merchantId) {
    throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `User ${path.userId} not found` });
  }
  return user;
}

/**
 * POST /companies/{companyId}/users and POST /merchants/{merchantId}/users: the user name must be
 * the email address (Adyen's rule) and is unique within the company. Company users may be given
 * merchant accounts of the company that the caller reaches.
 */
export async function createUser(tx: Tx, now: Date, caller: Credential, path: UsersPath, input: UserInput): Promise<User> {
  const level = await levelOf(tx, caller, path);
  if (input.username !== input.email) throw invalidField('username', input.username, 'must be the same as the email address');
  const user: User = {
    id: `S2-${randomBytes(6).toString('hex').toUpperCase()}`,
    companyId: level.companyId,
    merchantId: level.merchantId,
    username: input.username,
    email: input.email,
    firstName: input.name.firstName,
    lastName: input.name.lastName,
    active: true,
    roles: [...new Set(input.roles ?? [])],
    accountGroups: [...new Set(input.accountGroups ?? [])],
    associatedMerchantAccounts:
      level.merchantId === null ? await checkedUserMerchantAccounts(tx, caller, level.companyId, input.associatedMerchantAccounts ?? []) : [],
    timeZoneCode: checkedTimeZone(input.timeZoneCode ?? DEFAULT_TIME_ZONE),
    loginMethod: checkedLoginMethod(input.loginMethod ?? 'Email'),
    createdAt: now.toISOString(),
  };
  if (!(await tx.users.insert(user))) throw invalidField('username', input.username, `${input.username} is already the user name of a user of this company`);
  return user;
}

/** PATCH …/users/{userId}: absent fields stay; lists replace; the user name stays what it was. */
export async function updateUser(tx: Tx, caller: Credential, path: UsersPath & { userId: string }, change: UserChange): Promise<User> {
  const user = await userAt(tx, caller, path);
  const updated: User = {
    ...user,
    ...(change.email !== undefined && { email: change.email }),
    ...(change.name?.firstName !== undefined && { firstName: change.name.firstName }),
    ...(change.name?.lastName !== undefined && { lastName: change.name.lastName }),
    ...(change.roles !== undefined && { roles: [...new Set(change.roles)] }),
    ...(change.accountGroups !== undefined && { accountGroups: [...new Set(change.accountGroups)] }),
    ...(change.timeZoneCode !== undefined && { timeZoneCode: checkedTimeZone(change.timeZoneCode) }),
    ...(change.loginMethod !== undefined && { loginMethod: checkedLoginMethod(change.loginMethod) }),
    ...(change.active !== undefined && { active: change.active }),
    ...(change.associatedMerchantAccounts !== undefined &&
      user.merchantId === null && {
        associatedMerchantAccounts: await checkedUserMerchantAccounts(tx, caller, user.companyId, change.associatedMerchantAccounts),
      }),
  };
  await tx.users.update(updated);
  return updated;
}
