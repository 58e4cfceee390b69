import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { AllowedOrigin, Credential } from '../../store/types.js';
import * as domain from './credentials.domain.js';

/** The wire form of an allowed origin; `originsHref` is the list it belongs to (`…/me/allowedOrigins` or the credential's). */
export const toOriginView = (o: AllowedOrigin, originsHref: string) => ({
  id: o.id,
  domain: o.domain,
  _links: { self: { href: `${originsHref}/${o.id}` } },
});

/** The address of a credential: under its merchant account, or under its company. */
export const credentialSelf = (c: Credential, base: string) =>
  c.merchantId ? `${base}/merchants/${c.merchantId}/apiCredentials/${c.id}` : `${base}/companies/${c.companyId}/apiCredentials/${c.id}`;

export function credentialLinks(c: Credential, base: string) {
  const self = credentialSelf(c, base);
  return {
    self: { href: self },
    allowedOrigins: { href: `${self}/allowedOrigins` },
    generateApiKey: { href: `${self}/generateApiKey` },
    generateClientKey: { href: `${self}/generateClientKey` },
    ...(c.merchantId ? { merchant: { href: `${base}/merchants/${c.merchantId}` } } : { company: { href: `${base}/companies/${c.companyId}` } }),
  };
}

const managementBase = (req: Parameters<typeof baseUrlOf>[0], publicBaseUrl: string) => `${baseUrlOf(req, publicBaseUrl)}${MANAGEMENT_BASE}`;

/** GET /me: the credential that made the request. */
export const getApiCredentialDetails = operation('getApiCredentialDetails')(async ({ caller: { credential: c }, req }, deps) => {
  const base = managementBase(req, deps.config.publicBaseUrl);
  const [company, origins] = await deps.store.read(async (tx) => [await tx.companies.get(c.companyId), await tx.credentials.origins(c.id)] as const);
  return {
    id: c.id,
    username: c.username,
    companyName: company?.name ?? c.companyId,
    active: c.active,
    description: c.description,
    clientKey: c.clientKey,
    roles: c.roles,
    allowedIpAddresses: c.allowedIpAddresses,
    allowedOrigins: origins.map((o) => toOriginView(o, `${base}/me/allowedOrigins`)),
    associatedMerchantAccounts: c.merchantId ? [c.merchantId] : c.associatedMerchantAccounts,
    ...(c.subjectDN !== undefined && { subjectDN: c.subjectDN }),
    _links: credentialLinks(c, base),
  };
});

/** POST /me/generateClientKey: the calling credential's new client key (the old one works 24 hours more). */
export const generateClientKey = operation('generateClientKey')(async ({ caller: { credential } }, deps) => {
  const clientKey = await deps.store.transaction(async (tx) => {
    const current = await tx.credentials.getForUpdate(credential.id);
    return domain.rotateClientKey(tx, deps.clock.now(credential.companyId), current ?? credential);
  });
  return { clientKey };
});
