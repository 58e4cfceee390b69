import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { User } from '../../store/types.js';
import { pageOf, paginated } from '../pagination.js';
import * as domain from './users.domain.js';

type Request = Parameters<typeof baseUrlOf>[0];

const base = (deps: HandlerDeps, req: Request) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

/** Where a level's users are listed: under the company or under the merchant account. */
const usersHref = (path: domain.UsersPath, b: string) =>
  'companyId' in path ? `${b}/companies/${path.companyId}/users` : `${b}/merchants/${path.merchantId}/users`;

/** The wire form of a user: company users also list their merchant accounts. Nothing secret exists to leave out. */
function toUserView(u: User, b: string) {
  const path: domain.UsersPath = u.merchantId === null ? { companyId: u.companyId } : { merchantId: u.merchantId };
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    name: { firstName: u.firstName, lastName: u.lastName },
    active: u.active,
    timeZoneCode: u.timeZoneCode,
    accountGroups: u.accountGroups,
    roles: u.roles,
    ...(u.merchantId === null && { associatedMerchantAccounts: u.associatedMerchantAccounts }),
    _links: { self: { href: `${usersHref(path, b)}/${u.id}` } },
  };
}

const list = async (
  deps: HandlerDeps,
  req: Request,
  caller: Parameters<typeof domain.listUsers>[1],
  path: domain.UsersPath,
  query: { pageNumber?: number; pageSize?: number; username?: string },
) => {
  const page = pageOf(query);
  const { items, total } = await deps.store.read((tx) => domain.listUsers(tx, caller, path, query.username, page));
  const b = base(deps, req);
  return paginated(
    b,
    usersHref(path, b).slice(b.length),
    page,
    items.map((u) => toUserView(u, b)),
    total,
  );
};

/** GET /companies/{companyId}/users */
export const listCompanyUsers = operation('listCompanyUsers')(async ({ path, query, caller: { credential }, req }, deps) =>
  list(deps, req, credential, path, query),
);

/** GET /merchants/{merchantId}/users */
export const listMerchantUsers = operation('listMerchantUsers')(async ({ path, query, caller: { credential }, req }, deps) =>
  list(deps, req, credential, path, query),
);

/** POST /companies/{companyId}/users */
export const createNewCompanyUser = operation('createNewCompanyUser')(async ({ path, body, caller: { credential }, req }, deps) => {
  const user = await deps.store.transaction((tx) => domain.createUser(tx, deps.clock.now(credential.companyId), credential, path, body));
  return toUserView(user, base(deps, req));
});

/** POST /merchants/{merchantId}/users */
export const createNewMerchantUser = operation('createNewMerchantUser')(async ({ path, body, caller: { credential }, req }, deps) => {
  const { associatedMerchantAccounts: _a, ...view } = toUserView(
    await deps.store.transaction((tx) => domain.createUser(tx, deps.clock.now(credential.companyId), credential, path, body)),
    base(deps, req),
  );
  return view;
});

/** GET /companies/{companyId}/users/{userId} */
export const getCompanyUserDetails = operation('getCompanyUserDetails')(async ({ path, caller: { credential }, req }, deps) =>
  toUserView(await deps.store.read((tx) => domain.userAt(tx, credential, path)), base(deps, req)),
);

/** GET /merchants/{merchantId}/users/{userId} */
export const getMerchantUserDetails = operation('getMerchantUserDetails')(async ({ path, caller: { credential }, req }, deps) => {
  const { associatedMerchantAccounts: _a, ...view } = toUserView(await deps.store.read((tx) => domain.userAt(tx, credential, path)), base(deps, req));
  return view;
});

/** PATCH /companies/{companyId}/users/{userId} */
export const updateCompanyUserDetails = operation('updateCompanyUserDetails')(async ({ path, body, caller: { credential }, req }, deps) =>
  toUserView(await deps.store.transaction((tx) => domain.updateUser(tx, credential, path, body)), base(deps, req)),
);

/** PATCH /merchants/{merchantId}/users/{userId} */
export const updateMerchantUser = operation('updateMerchantUser')(async ({ path, body, caller: { credential }, req }, deps) => {
  const { associatedMerchantAccounts: _a, ...view } = toUserView(
    await deps.store.transaction((tx) => domain.updateUser(tx, credential, path, body)),
    base(deps, req),
  );
  return view;
});
