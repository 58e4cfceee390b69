import type { components } from '../../../generated/management.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Merchant } from '../../store/types.js';
import { listVisibleMerchants } from './accounts.domain.js';
import { pageOf, paginated } from '../pagination.js';

type MerchantView = components['schemas']['Merchant'];

export function toMerchantView(m: Merchant, base: string): MerchantView {
  return {
    id: m.id,
    companyId: m.companyId,
    name: m.name,
    description: m.description,
    reference: m.reference,
    status: m.status,
    captureDelay: String(m.captureDelay),
    defaultShopperInteraction: m.defaultShopperInteraction,
    primarySettlementCurrency: m.primarySettlementCurrency,
    shopWebAddress: m.shopWebAddress,
    merchantCity: m.merchantCity,
    pricingPlan: m.pricingPlan,
    dataCenters: [{ name: 'default', livePrefix: '' }],
    _links: {
      self: { href: `${base}/merchants/${m.id}` },
      apiCredentials: { href: `${base}/merchants/${m.id}/apiCredentials` },
    },
  };
}

/** GET /companies/{companyId}/merchants */
export const listMerchantAccounts = operation('listMerchantAccounts')(async ({ path: { companyId }, query, caller: { credential }, req }, deps) => {
  const page = pageOf(query);
  const { items, total } = await deps.store.read((tx) => listVisibleMerchants(tx, credential, companyId, page));
  const base = `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;
  return paginated(
    base,
    `/companies/${companyId}/merchants`,
    page,
    items.map((m) => toMerchantView(m, base)),
    total,
  );
});
