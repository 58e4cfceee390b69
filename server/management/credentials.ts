import type { components } from '../../generated/management.js';
import { assertMayManage } from '../auth/policy.js';
import { MANAGEMENT_BASE } from '../http/area.js';
import { baseUrlOf, pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerDeps, HandlerFactory, JsonBody } from '../http/types.js';
import type { operations } from '../../generated/management.js';
import * as domain from './credentials.domain.js';
import { credentialLinks, toOriginView } from './me.js';
import { pageOf, paginated } from './pagination.js';

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
export const listCompanyApiCredentials: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const companyId = pathParam(req, 'companyId');
  const page = pageOf(req.query);
  const { items, total } = await deps.store.read((tx) => domain.listCompanyCredentials(tx, credential, companyId, page));
  const b = base(deps, req);
  res.json(paginated(b, `/companies/${companyId}/apiCredentials`, page, items.map((v) => toCredentialView(v, b)), total));
};

/** GET /merchants/{merchantId}/apiCredentials */
export const listMerchantApiCredentials: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const merchantId = pathParam(req, 'merchantId');
  const page = pageOf(req.query);
  const { items, total } = await deps.store.read((tx) => domain.listMerchantCredentials(tx, credential, merchantId, page));
  const b = base(deps, req);
  res.json(paginated(b, `/merchants/${merchantId}/apiCredentials`, page, items.map((v) => toCredentialView(v, b)), total));
};

/** GET /companies/{companyId}/apiCredentials/{apiCredentialId} */
export const getCompanyApiCredential: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const view = await deps.store.read((tx) => domain.companyCredential(tx, credential, pathParam(req, 'companyId'), pathParam(req, 'apiCredentialId')));
  res.json(toCredentialView(view, base(deps, req)));
};

/** GET /merchants/{merchantId}/apiCredentials/{apiCredentialId} */
export const getMerchantApiCredential: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const view = await deps.store.read((tx) => domain.merchantCredential(tx, credential, pathParam(req, 'merchantId'), pathParam(req, 'apiCredentialId')));
  const { associatedMerchantAccounts: _a, ...merchantView } = toCredentialView(view, base(deps, req));
  res.json(merchantView);
};

/** GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins */
export const listCompanyAllowedOrigins: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const view = await deps.store.read((tx) => domain.companyCredential(tx, credential, pathParam(req, 'companyId'), pathParam(req, 'apiCredentialId')));
  const b = base(deps, req);
  res.json({ data: view.origins.map((o) => toOriginView(o, b)) });
};

/** POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey */
export const generateNewCompanyApiKey: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const apiKey = await deps.store.transaction(async (tx) => {
    const { credential: target } = await domain.companyCredential(tx, credential, pathParam(req, 'companyId'), pathParam(req, 'apiCredentialId'));
    assertMayManage(credential, target);
    return domain.rotateApiKey(tx, deps.clock.now(target.companyId), target);
  });
  res.json({ apiKey });
};

/** POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey */
export const generateNewMerchantApiKey: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const apiKey = await deps.store.transaction(async (tx) => {
    const { credential: target } = await domain.merchantCredential(tx, credential, pathParam(req, 'merchantId'), pathParam(req, 'apiCredentialId'));
    assertMayManage(credential, target);
    return domain.rotateApiKey(tx, deps.clock.now(target.companyId), target);
  });
  res.json({ apiKey });
};

/** GET /me/allowedOrigins */
export const getAllowedOrigins: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const origins = await deps.store.read((tx) => tx.listAllowedOrigins(credential.id));
  const b = base(deps, req);
  res.json({ data: origins.map((o) => toOriginView(o, b)) });
};

/** POST /me/allowedOrigins */
export const addAllowedOrigin: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const body = req.body as JsonBody<operations['addAllowedOrigin']>;
  const origin = await deps.store.transaction((tx) => domain.addAllowedOrigin(tx, deps.clock.now(credential.companyId), credential, body.domain));
  res.json(toOriginView(origin, base(deps, req)));
};

/** GET /me/allowedOrigins/{originId} */
export const getAllowedOriginDetails: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const origin = await deps.store.read((tx) => domain.ownAllowedOrigin(tx, credential, pathParam(req, 'originId')));
  res.json(toOriginView(origin, base(deps, req)));
};

/** DELETE /me/allowedOrigins/{originId} */
export const removeAllowedOrigin: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  await deps.store.transaction(async (tx) => {
    const origin = await domain.ownAllowedOrigin(tx, credential, pathParam(req, 'originId'));
    await tx.deleteAllowedOrigin(origin.id);
  });
  res.status(204).end();
};
