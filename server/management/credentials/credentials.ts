import type { components } from '../../../generated/management.js';
import { assertMayManage } from '../../kernel/auth/policy.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import * as domain from './credentials.domain.js';
import { credentialLinks, toOriginView } from './me.js';
import { pageOf, paginated } from '../pagination.js';

type CompanyApiCredential = components['schemas']['CompanyApiCredential'];

const base = (deps: HandlerDeps, req: Parameters<typeof baseUrlOf>[0]) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

/** The wire form of a credential; company-level ones also list their merchant accounts. Never a key. */
export function toCredentialView({ credential: c, origins }: domain.CredentialView, b: string): CompanyApiCredential {
  return {
    id: c.id,
    username: c.username,
    description: c.description,
    active: c.active,
    clientKey: c.clientKey,
    roles: c.roles,
    allowedIpAddresses: c.allowedIpAddresses,
    allowedOrigins: origins.map((o) => toOriginView(o, b)),
    ...(c.merchantId === null && { associatedMerchantAccounts: c.associatedMerchantAccounts }),
    _links: credentialLinks(c, b),
  };
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
  const view = await deps.store.read((tx) => domain.companyCredential(tx, credential, path.companyId, path.apiCredentialId));
  return toCredentialView(view, base(deps, req));
});

/** GET /merchants/{merchantId}/apiCredentials/{apiCredentialId} */
export const getMerchantApiCredential = operation('getMerchantApiCredential')(async ({ path, caller: { credential }, req }, deps) => {
  const view = await deps.store.read((tx) => domain.merchantCredential(tx, credential, path.merchantId, path.apiCredentialId));
  const { associatedMerchantAccounts: _a, ...merchantView } = toCredentialView(view, base(deps, req));
  return merchantView;
});

/** GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins */
export const listCompanyAllowedOrigins = operation('listCompanyAllowedOrigins')(async ({ path, caller: { credential }, req }, deps) => {
  const view = await deps.store.read((tx) => domain.companyCredential(tx, credential, path.companyId, path.apiCredentialId));
  const b = base(deps, req);
  return { data: view.origins.map((o) => toOriginView(o, b)) };
});

/** POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey */
export const generateNewCompanyApiKey = operation('generateNewCompanyApiKey')(async ({ path, caller: { credential } }, deps) => {
  const apiKey = await deps.store.transaction(async (tx) => {
    const { credential: target } = await domain.companyCredential(tx, credential, path.companyId, path.apiCredentialId);
    assertMayManage(credential, target);
    return domain.rotateApiKey(tx, deps.clock.now(target.companyId), target);
  });
  return { apiKey };
});

/** POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey */
export const generateNewMerchantApiKey = operation('generateNewMerchantApiKey')(async ({ path, caller: { credential } }, deps) => {
  const apiKey = await deps.store.transaction(async (tx) => {
    const { credential: target } = await domain.merchantCredential(tx, credential, path.merchantId, path.apiCredentialId);
    assertMayManage(credential, target);
    return domain.rotateApiKey(tx, deps.clock.now(target.companyId), target);
  });
  return { apiKey };
});

/** GET /me/allowedOrigins */
export const getAllowedOrigins = operation('getAllowedOrigins')(async ({ caller: { credential }, req }, deps) => {
  const origins = await deps.store.read((tx) => tx.credentials.origins(credential.id));
  const b = base(deps, req);
  return { data: origins.map((o) => toOriginView(o, b)) };
});

/** POST /me/allowedOrigins */
export const addAllowedOrigin = operation('addAllowedOrigin')(async ({ body, caller: { credential }, req }, deps) => {
  const origin = await deps.store.transaction((tx) => domain.addAllowedOrigin(tx, deps.clock.now(credential.companyId), credential, body.domain));
  return toOriginView(origin, base(deps, req));
});

/** GET /me/allowedOrigins/{originId} */
export const getAllowedOriginDetails = operation('getAllowedOriginDetails')(async ({ path, caller: { credential }, req }, deps) => {
  const origin = await deps.store.read((tx) => domain.ownAllowedOrigin(tx, credential, path.originId));
  return toOriginView(origin, base(deps, req));
});

/** DELETE /me/allowedOrigins/{originId} */
export const removeAllowedOrigin = operation('removeAllowedOrigin')(async ({ path, caller: { credential } }, deps) => {
  await deps.store.transaction(async (tx) => {
    const origin = await domain.ownAllowedOrigin(tx, credential, path.originId);
    await tx.credentials.deleteOrigin(origin.id);
  });
});
