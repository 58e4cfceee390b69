import type { Request } from 'express';
import type { components } from '../../../generated/management.js';
import { MANAGEMENT_BASE } from '../../kernel/http/area.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { Credential, StoreLocation } from '../../store/types.js';
import { pageOf, paginated } from '../pagination.js';
import * as domain from './stores.domain.js';

type Store = components['schemas']['Store'];

const base = (deps: HandlerDeps, req: Request) => `${baseUrlOf(req, deps.config.publicBaseUrl)}${MANAGEMENT_BASE}`;

/** The wire form of a store: the details only where they are set. */
export function toStoreView(s: StoreLocation, b: string): Store {
  const { businessLineIds, ...details } = s.details;
  return {
    id: s.id,
    merchantId: s.merchantId,
    reference: s.reference,
    description: s.description,
    shopperStatement: s.shopperStatement,
    phoneNumber: s.phoneNumber,
    status: s.status,
    address: s.address,
    ...(businessLineIds && businessLineIds.length > 0 && { businessLineIds }),
    ...details,
    _links: { self: { href: `${b}/stores/${s.id}` } },
  };
}

const list = async (
  deps: HandlerDeps,
  req: Request,
  credential: Credential,
  path: string,
  query: Parameters<typeof domain.listStores>[2] & { pageNumber?: number; pageSize?: number },
) => {
  const page = pageOf(query);
  const { items, total } = await deps.store.read((tx) => domain.listStores(tx, credential, query, page));
  const b = base(deps, req);
  return paginated(
    b,
    path,
    page,
    items.map((s) => toStoreView(s, b)),
    total,
  );
};

const create = async (deps: HandlerDeps, req: Request, credential: Credential, merchantId: string, body: domain.NewStore) =>
  toStoreView(await deps.store.transaction((tx) => domain.createStore(tx, credential, merchantId, body)), base(deps, req));

const get = async (deps: HandlerDeps, req: Request, credential: Credential, storeId: string, merchantId?: string) =>
  toStoreView(await deps.store.read((tx) => domain.storeOf(tx, credential, storeId, merchantId)), base(deps, req));

const update = async (deps: HandlerDeps, req: Request, credential: Credential, storeId: string, merchantId: string | undefined, body: domain.StoreChanges) =>
  toStoreView(await deps.store.transaction((tx) => domain.updateStore(tx, credential, storeId, merchantId, body)), base(deps, req));

/** GET /stores */
export const listStores = operation('listStores')(({ query, caller: { credential }, req }, deps) => list(deps, req, credential, '/stores', query));

/** POST /stores */
export const createStore = operation('createStore')(({ body: { merchantId, ...store }, caller: { credential }, req }, deps) =>
  create(deps, req, credential, merchantId, store),
);

/** GET /stores/{storeId} */
export const getStoreById = operation('getStoreById')(({ path, caller: { credential }, req }, deps) => get(deps, req, credential, path.storeId));

/** PATCH /stores/{storeId} */
export const updateStoreById = operation('updateStoreById')(({ body, path, caller: { credential }, req }, deps) =>
  update(deps, req, credential, path.storeId, undefined, body),
);

/** GET /merchants/{merchantId}/stores */
export const listStoresByMerchantId = operation('listStoresByMerchantId')(({ path, query, caller: { credential }, req }, deps) =>
  list(deps, req, credential, `/merchants/${path.merchantId}/stores`, { ...query, merchantId: path.merchantId }),
);

/** POST /merchants/{merchantId}/stores */
export const createStoreByMerchantId = operation('createStoreByMerchantId')(({ body, path, caller: { credential }, req }, deps) =>
  create(deps, req, credential, path.merchantId, body),
);

/** GET /merchants/{merchantId}/stores/{storeId} */
export const getStore = operation('getStore')(({ path, caller: { credential }, req }, deps) => get(deps, req, credential, path.storeId, path.merchantId));

/** PATCH /merchants/{merchantId}/stores/{storeId} */
export const updateStore = operation('updateStore')(({ body, path, caller: { credential }, req }, deps) =>
  update(deps, req, credential, path.storeId, path.merchantId, body),
);
