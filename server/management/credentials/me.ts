import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { AllowedOrigin, Credential } from '../../store/types.js';

/** The wire form of an allowed origin. */
export const toOriginView = (o: AllowedOrigin, base: string) => ({
  id: o.id,
  domain: o.domain,
  _links: { self: { href: `${base}/me/allowedOrigins/${o.id}` } },
});

export function credentialLinks(c: Credential, base: string) {
  const self = c.merchantId ? `${base}/merchants/${c.merchantId}/apiCredentials/${c.id}` : `${base}/companies/${c.companyId}/apiCredentials/${c.id}`;
  return {
    self: { href: self },
    allowedOrigins: { href: `${self}/allowedOrigins` },
    generateApiKey: { href: `${self}/generateApiKey` },
    generateClientKey: { href: `${self}/generateClientKey` },
    ...(c.merchantId ? { merchant: { href: `${base}/merchants/${c.merchantId}` } } : { company: { href: `${base}/companies/${c.companyId}` } }),
  };
}

/** GET /me: the credential that made the request. */
export const getApiCredentialDetails = operation('getApiCredentialDetails')(async ({ caller: { credential: c }, req }, deps) => {
  const base = `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;
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
    allowedOrigins: origins.map((o) => toOriginView(o, base)),
    associatedMerchantAccounts: c.merchantId ? [c.merchantId] : c.associatedMerchantAccounts,
    _links: credentialLinks(c, base),
  };
});
