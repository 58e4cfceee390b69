import type { components } from '../../../generated/management.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany, visibleMerchant } from '../accounts/accounts.domain.js';
import * as domain from './credentials.domain.js';
import { credentialLinks, credentialSelf, toOriginView } from './me.js';
import { pageOf, paginated } from '../pagination.js';

type CompanyApiCredential = components['schemas']['CompanyApiCredential'];

const base = (deps: HandlerDeps, req: Parameters<typeof baseUrlOf>[0]) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

/** Where the allowed origins of a credential are listed (their links point below it). */
const originsOf = (c: Credential, b: string) => `${credentialSelf(c, b)}/allowedOrigins`;

/** The wire form of a credential; company-level ones also list their merchant accounts. Never a key or the password. */
export function toCredentialView({ credential: c, origins }: domain.CredentialView, b: string): CompanyApiCredential {
  return {
    id: c.id,
    username: c.username,
    description: c.description,
    active: c.active,
    clientKey: c.clientKey,
    roles: c.roles,
    allowedIpAddresses: c.allowedIpAddresses,
    allowedOrigins: origins.map((o) => toOriginView(o, originsOf(c, b))),
    ...(c.merchantId === null && { associatedMerchantAccounts: c.associatedMerchantAccounts }),
    ...(c.subjectDN !== undefined && { subjectDN: c.subjectDN }),
    _links: credentialLinks(c, b),
  };
}

/** The merchant-level wire form: the same without `associatedMerchantAccounts`. */
function toMerchantCredentialView(view: domain.CredentialView, b: string) {
  const { associatedMerchantAccounts: _a, ...merchantView } = toCredentialView(view, b);
  return merchantView;
}

/** GET /companies/{companyId}/apiCredentials */
export const listCompanyApiCredentials = operation('listCompanyApiCredentials')(async ({ path: { companyId }, query, caller: { credential }, req }, deps) => {
  const page = pageOf(query);
  const { items, total } = await deps.store.read((tx) => domain.listCompanyCredentials(tx, credential, companyId, page));
  const b = base(deps, req);
  return paginated(
    b,
    `/companies/${companyId}/apiCredentials`,
    page,
    items.map((v) => toCredentialView(v, b)),
    total,
  );
});

/** GET /merchants/{merchantId}/apiCredentials */
export const listMerchantApiCredentials = operation('listMerchantApiCredentials')(async (
  { path: { merchantId }, query, caller: { credential }, req },
  deps,
) => {
  const page = pageOf(query);
  const { items, total } = await deps.store.read((tx) => domain.listMerchantCredentials(tx, credential, merchantId, page));
  const b = base(deps, req);
  return paginated(
    b,
    `/merchants/${merchantId}/apiCredentials`,
    page,
    items.map((v) => toCredentialView(v, b)),
    total,
  );
});

/** GET /companies/{companyId}/apiCredentials/{apiCredentialId} */
export const getCompanyApiCredential = operation('getCompanyApiCredential')(async ({ path, caller: { credential }, req }, deps) => {
  const view = await deps.store.read((tx) => domain.credentialAt(tx, credential, path));
  return toCredentialView(view, base(deps, req));
});

/** GET /merchants/{merchantId}/apiCredentials/{apiCredentialId} */
export const getMerchantApiCredential = operation('getMerchantApiCredential')(async ({ path, caller: { credential }, req }, deps) => {
  const view = await deps.store.read((tx) => domain.credentialAt(tx, credential, path));
  return toMerchantCredentialView(view, base(deps, req));
});

// ---------------------------------------------------------------------------------------------
// Creating and changing credentials.
// ---------------------------------------------------------------------------------------------

/** The answer to a creation: the credential with its API key and password, this once. */
function toCreatedView(created: domain.NewCredential, b: string) {
  return { ...toCredentialView(created.view, b), apiKey: created.apiKey, password: created.password };
}

/** POST /companies/{companyId}/apiCredentials */
export const createCompanyApiCredential = operation('createCompanyApiCredential')(async ({ path: { companyId }, body, caller: { credential }, req }, deps) => {
  const created = await deps.store.transaction(async (tx) => {
    await visibleCompany(tx, credential, companyId);
    return domain.createCredential(tx, deps.clock.now(companyId), credential, { companyId, merchantId: null }, body);
  });
  return { ...toCreatedView(created, base(deps, req)), associatedMerchantAccounts: created.view.credential.associatedMerchantAccounts };
});

/** POST /merchants/{merchantId}/apiCredentials */
export const createMerchantApiCredential = operation('createMerchantApiCredential')(async (
  { path: { merchantId }, body, caller: { credential }, req },
  deps,
) => {
  const created = await deps.store.transaction(async (tx) => {
    const merchant = await visibleMerchant(tx, credential, merchantId);
    return domain.createCredential(tx, deps.clock.now(merchant.companyId), credential, { companyId: merchant.companyId, merchantId }, body);
  });
  const { associatedMerchantAccounts: _a, ...view } = toCreatedView(created, base(deps, req));
  return view;
});

/** Changes the credential the path names, as the caller may (see domain.updateCredential). */
const update = (deps: HandlerDeps, caller: Credential, path: domain.CredentialPath, change: domain.CredentialChange) =>
  deps.store.transaction(async (tx) => {
    const view = await domain.manageableCredentialAt(tx, caller, path);
    return domain.updateCredential(tx, deps.clock.now(view.credential.companyId), caller, view, change);
  });

/** PATCH /companies/{companyId}/apiCredentials/{apiCredentialId} */
export const updateCompanyApiCredential = operation('updateCompanyApiCredential')(async ({ path, body, caller: { credential }, req }, deps) =>
  toCredentialView(await update(deps, credential, path, body), base(deps, req)),
);

/** PATCH /merchants/{merchantId}/apiCredentials/{apiCredentialId} */
export const updateMerchantApiCredential = operation('updateMerchantApiCredential')(async ({ path, body, caller: { credential }, req }, deps) =>
  toMerchantCredentialView(await update(deps, credential, path, body), base(deps, req)),
);

/** Runs `work` on the credential the path names, locked, once the caller is known to be allowed to change it. */
const onManageable = <T>(
  deps: HandlerDeps,
  caller: Credential,
  path: domain.CredentialPath,
  work: (tx: Tx, target: domain.CredentialView, now: Date) => Promise<T>,
) =>
  deps.store.transaction(async (tx) => {
    const view = await domain.manageableCredentialAt(tx, caller, path);
    return work(tx, view, deps.clock.now(view.credential.companyId));
  });

/** POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey */
export const generateNewCompanyApiKey = operation('generateNewCompanyApiKey')(async ({ path, caller: { credential } }, deps) => ({
  apiKey: await onManageable(deps, credential, path, (tx, { credential: target }, now) => domain.rotateApiKey(tx, now, target)),
}));

/** POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey */
export const generateNewMerchantApiKey = operation('generateNewMerchantApiKey')(async ({ path, caller: { credential } }, deps) => ({
  apiKey: await onManageable(deps, credential, path, (tx, { credential: target }, now) => domain.rotateApiKey(tx, now, target)),
}));

/** POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateClientKey */
export const generateNewCompanyClientKey = operation('generateNewCompanyClientKey')(async ({ path, caller: { credential } }, deps) => ({
  clientKey: await onManageable(deps, credential, path, (tx, { credential: target }, now) => domain.rotateClientKey(tx, now, target)),
}));

/** POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateClientKey */
export const generateNewMerchantClientKey = operation('generateNewMerchantClientKey')(async ({ path, caller: { credential } }, deps) => ({
  clientKey: await onManageable(deps, credential, path, (tx, { credential: target }, now) => domain.rotateClientKey(tx, now, target)),
}));

// ---------------------------------------------------------------------------------------------
// Allowed origins of a company or merchant credential.
// ---------------------------------------------------------------------------------------------

/** The allowed origins of the credential the path names. */
const listOrigins = async (deps: HandlerDeps, caller: Credential, path: domain.CredentialPath, b: string) => {
  const { credential, origins } = await deps.store.read((tx) => domain.credentialAt(tx, caller, path));
  return { data: origins.map((o) => toOriginView(o, originsOf(credential, b))) };
};

/** One allowed origin of the credential the path names. */
const getOrigin = async (deps: HandlerDeps, caller: Credential, path: domain.CredentialPath & { originId: string }, b: string) => {
  const [credential, origin] = await deps.store.read(async (tx) => {
    const view = await domain.credentialAt(tx, caller, path);
    return [view.credential, await domain.allowedOriginOf(tx, view.credential, path.originId)] as const;
  });
  return toOriginView(origin, originsOf(credential, b));
};

/** Adds an origin to the credential the path names, if the caller may change that credential. */
const addOrigin = async (deps: HandlerDeps, caller: Credential, path: domain.CredentialPath, domainName: string, b: string) => {
  const [credential, origin] = await onManageable(
    deps,
    caller,
    path,
    async (tx, view, now) => [view.credential, await domain.addAllowedOrigin(tx, now, view.credential, domainName)] as const,
  );
  return toOriginView(origin, originsOf(credential, b));
};

/** Removes an origin of the credential the path names, if the caller may change that credential. */
const removeOrigin = (deps: HandlerDeps, caller: Credential, path: domain.CredentialPath & { originId: string }) =>
  onManageable(deps, caller, path, async (tx, view) => {
    const origin = await domain.allowedOriginOf(tx, view.credential, path.originId);
    await tx.credentials.deleteOrigin(origin.id);
  });

/** GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins */
export const listCompanyAllowedOrigins = operation('listCompanyAllowedOrigins')(async ({ path, caller: { credential }, req }, deps) =>
  listOrigins(deps, credential, path, base(deps, req)),
);

/** GET /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins */
export const listMerchantAllowedOrigins = operation('listMerchantAllowedOrigins')(async ({ path, caller: { credential }, req }, deps) =>
  listOrigins(deps, credential, path, base(deps, req)),
);

/** POST /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins */
export const createCompanyAllowedOrigin = operation('createCompanyAllowedOrigin')(async ({ path, body, caller: { credential }, req }, deps) =>
  addOrigin(deps, credential, path, body.domain, base(deps, req)),
);

/** POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins */
export const createMerchantAllowedOrigin = operation('createMerchantAllowedOrigin')(async ({ path, body, caller: { credential }, req }, deps) =>
  addOrigin(deps, credential, path, body.domain, base(deps, req)),
);

/** GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId} */
export const getCompanyAllowedOrigin = operation('getCompanyAllowedOrigin')(async ({ path, caller: { credential }, req }, deps) =>
  getOrigin(deps, credential, path, base(deps, req)),
);

/** GET /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId} */
export const getMerchantAllowedOrigin = operation('getMerchantAllowedOrigin')(async ({ path, caller: { credential }, req }, deps) =>
  getOrigin(deps, credential, path, base(deps, req)),
);

/** DELETE /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId} */
export const deleteCompanyAllowedOrigin = operation('deleteCompanyAllowedOrigin')(async ({ path, caller: { credential } }, deps) =>
  removeOrigin(deps, credential, path),
);

/** DELETE /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId} */
export const deleteMerchantAllowedOrigin = operation('deleteMerchantAllowedOrigin')(async ({ path, caller: { credential } }, deps) =>
  removeOrigin(deps, credential, path),
);

// ---------------------------------------------------------------------------------------------
// The calling credential's own allowed origins (/me).
// ---------------------------------------------------------------------------------------------

const myOrigins = (deps: HandlerDeps, req: Parameters<typeof baseUrlOf>[0]) => `${base(deps, req)}/me/allowedOrigins`;

/** GET /me/allowedOrigins */
export const getAllowedOrigins = operation('getAllowedOrigins')(async ({ caller: { credential }, req }, deps) => {
  const origins = await deps.store.read((tx) => tx.credentials.origins(credential.id));
  return { data: origins.map((o) => toOriginView(o, myOrigins(deps, req))) };
});

/** POST /me/allowedOrigins */
export const addAllowedOrigin = operation('addAllowedOrigin')(async ({ body, caller: { credential }, req }, deps) => {
  const origin = await deps.store.transaction(async (tx) => {
    // Locked, as at the other levels: two concurrent adds of one origin cannot both pass the duplicate check.
    const locked = (await tx.credentials.getForUpdate(credential.id)) ?? credential;
    return domain.addAllowedOrigin(tx, deps.clock.now(credential.companyId), locked, body.domain);
  });
  return toOriginView(origin, myOrigins(deps, req));
});

/** GET /me/allowedOrigins/{originId} */
export const getAllowedOriginDetails = operation('getAllowedOriginDetails')(async ({ path, caller: { credential }, req }, deps) => {
  const origin = await deps.store.read((tx) => domain.allowedOriginOf(tx, credential, path.originId));
  return toOriginView(origin, myOrigins(deps, req));
});

/** DELETE /me/allowedOrigins/{originId} */
export const removeAllowedOrigin = operation('removeAllowedOrigin')(async ({ path, caller: { credential } }, deps) => {
  await deps.store.transaction(async (tx) => {
    const origin = await domain.allowedOriginOf(tx, credential, path.originId);
    await tx.credentials.deleteOrigin(origin.id);
  });
});
