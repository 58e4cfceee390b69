import {
  ApiError,
  ERR_INVALID_MERCHANT_ACCOUNT,
  ERR_NOT_ALLOWED,
  ERR_NOT_FOUND_ENTITY,
  ERR_SESSION_NOT_FOUND,
  ERR_UNAUTHORIZED,
  type Area,
} from '../errors.js';
import type { Credential, Merchant } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { reaches } from './credentials.js';
import { describeRequirement, type Requirement, satisfies } from './roles.js';

/**
 * What an operation reaches, and so which credentials may call it (besides its roles):
 * - `self`: the caller's own credential or company view (`/me…`, reading the sandbox clock, origin keys).
 * - `company`: a company resource named by `{companyId}` (company credentials, Android files,
 *   company terminal settings): only a company-level credential of that company.
 * - `ownCompany`: the caller's company as a whole (advancing its sandbox clock): only a company-level credential.
 * - `merchantPath`: the merchant account `{merchantId}` of the path.
 * - `storePath` / `terminalPath`: the merchant account of the store `{storeId}` or of the
 *   terminal `{terminalId}` of the path.
 * - `merchantBody` / `merchantQuery`: the merchant account named by `merchantAccount` in the JSON
 *   body or the query (checkout).
 * - `sessionPath`: the checkout session `{sessionId}` of the path (client-side calls): one of a
 *   merchant account the credential does not reach is answered as not found.
 * - `resource`: a resource named in the path or body (a payment, session, link, store or terminal);
 *   its use case reads it and checks the credential reaches its merchant account.
 * Company-level credentials reach every merchant account of their company, or only their
 * `associatedMerchantAccounts` when that list is not empty; merchant-level ones reach their own.
 */
export type Scope =
  'self' | 'company' | 'ownCompany' | 'merchantPath' | 'storePath' | 'terminalPath' | 'sessionPath' | 'merchantBody' | 'merchantQuery' | 'resource';

/** The authorization rules of one operation: its roles (any one suffices) and its scope. */
export interface Policy {
  requires: Requirement;
  scope: Scope;
  /**
   * A client-side operation: a browser may call it with the credential's client key (from an
   * allowed origin). Every other operation refuses a client key with 401, whatever its roles.
   */
  clientKey?: true;
  /**
   * Takes no credential: the operation checks the one its body carries (the console's sign-in,
   * which authenticates its API key as every operation does). Nothing else is open this way.
   */
  signIn?: true;
}

const forbidden = (message: string) => new ApiError(ERR_NOT_ALLOWED, { message });

/**
 * What the credential was authenticated with, then its roles; neither needs a read. A client key
 * is public (it is in every page that uses it): it must never open a server-side operation.
 */
export function checkCaller(caller: { credential: Credential; clientKey?: true }, policy: Policy): void {
  if (caller.clientKey && !policy.clientKey) {
    throw new ApiError(ERR_UNAUTHORIZED, { message: 'Unauthorized: a client key authenticates client-side operations only; this operation needs an API key' });
  }
  checkRoles(caller.credential, policy.requires);
}

/** Roles first: they need no read. */
export function checkRoles(credential: Credential, requires: Requirement): void {
  if (!satisfies(credential.roles, requires)) throw forbidden(`Not allowed: the credential needs ${describeRequirement(requires)}`);
}

/**
 * The scope rules that the path decides, checked before the body is read: a refused request
 * must not have its body parsed, its upload written or a rate-limit slot taken.
 */
export async function checkPathScope(tx: Tx, credential: Credential, scope: Scope, params: Record<string, string>): Promise<void> {
  switch (scope) {
    case 'company':
    case 'ownCompany':
      if (credential.merchantId !== null) throw forbidden('Not allowed: this operation needs a company-level API credential');
      if (scope === 'company' && params.companyId !== credential.companyId) {
        // Another company's identifier is never confirmed to exist.
        throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Company ${params.companyId ?? ''} not found` });
      }
      return;
    case 'merchantPath':
      return checkMerchant(tx, credential, params.merchantId ?? '');
    case 'storePath': {
      const store = await tx.stores.get(params.storeId ?? '');
      if (!store) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Store ${params.storeId ?? ''} not found` });
      return checkMerchant(tx, credential, store.merchantId, `Store ${store.id}`);
    }
    case 'terminalPath': {
      // A terminal belongs to its merchant account, also when it is in no store (inventory).
      const terminal = await tx.terminals.getTerminal(params.terminalId ?? '');
      if (!terminal) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Terminal ${params.terminalId ?? ''} not found` });
      return checkMerchant(tx, credential, terminal.merchantId, `Terminal ${terminal.id}`);
    }
    case 'sessionPath': {
      const id = params.sessionId ?? '';
      const session = await tx.sessions.get(id);
      const merchant = session && (await tx.merchants.get(session.merchantAccount));
      // As checkout's session operations answer it: another's session is not confirmed to exist.
      if (!merchant || !reaches(credential, merchant)) throw new ApiError(ERR_SESSION_NOT_FOUND, { message: `Session ${id} not found` });
      return;
    }
    default:
      return;
  }
}

/**
 * A merchant account of the caller's company that the credential reaches. Another company's is
 * not found (under the name of what the path named, so a store or terminal is not confirmed
 * either); one of its own company outside a merchant-level credential's reach is forbidden.
 */
async function checkMerchant(tx: Tx, credential: Credential, merchantId: string, named = `Merchant account ${merchantId}`): Promise<void> {
  const merchant = await tx.merchants.get(merchantId);
  if (!merchant || merchant.companyId !== credential.companyId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `${named} not found` });
  if (!reaches(credential, merchant)) throw forbidden(`Not allowed: the credential does not reach merchant account ${merchantId}`);
}

/**
 * The scope rules that the parsed request decides (checkout's `merchantAccount`), checked before
 * the use case or a replay. Returns the merchant account it read, if any, for the use case's
 * transaction (TxContext.merchant).
 */
export async function checkRequestScope(
  tx: Tx,
  credential: Credential,
  scope: Scope,
  request: { body: unknown; query: Record<string, unknown> },
  area: Area,
): Promise<Merchant | null> {
  if (scope !== 'merchantBody' && scope !== 'merchantQuery') return null;
  const source = scope === 'merchantBody' ? request.body : request.query;
  const merchantAccount = source !== null && typeof source === 'object' ? (source as Record<string, unknown>).merchantAccount : undefined;
  if (typeof merchantAccount !== 'string') return null; // absent: the request schema decides whether that is allowed
  const merchant = await tx.merchants.get(merchantAccount);
  if (merchant && reaches(credential, merchant)) return merchant;
  throw area === 'checkout'
    ? new ApiError(ERR_INVALID_MERCHANT_ACCOUNT)
    : forbidden(`Not allowed: the credential does not reach merchant account ${merchantAccount}`);
}

/**
 * Whether the caller may act on another credential (rotate its keys, change it, its allowed
 * origins): never one above its own level, one that reaches merchant accounts it does not, or
 * one with a role it lacks. Acting on itself is always allowed (what it may change itself into
 * is `mayGrant`'s question).
 */
export function mayManage(caller: Credential, target: Credential): boolean {
  return caller.id === target.id || mayGrant(caller, target);
}

/**
 * Whether the caller may bring a credential into being as it is (create it so, or change it, or
 * itself, into it): only roles the caller holds, at its own level or below, and only within the
 * merchant accounts the caller reaches. Adyen's rule: only roles the company's own credential
 * has can be given to others.
 */
export function mayGrant(caller: Credential, target: Credential): boolean {
  if (caller.companyId !== target.companyId) return false;
  if (!target.roles.every((role) => caller.roles.includes(role))) return false;
  if (caller.merchantId !== null) return target.merchantId === caller.merchantId;
  const limitedTo = caller.associatedMerchantAccounts;
  if (limitedTo.length === 0) return true;
  if (target.merchantId !== null) return limitedTo.includes(target.merchantId);
  return target.associatedMerchantAccounts.length > 0 && target.associatedMerchantAccounts.every((m) => limitedTo.includes(m));
}

/** 403 unless the caller may act on the target credential. */
export function assertMayManage(caller: Credential, target: Credential): void {
  if (!mayManage(caller, target)) {
    throw forbidden('Not allowed: the credential cannot manage a credential above its own level, beyond its merchant accounts or with roles it does not have');
  }
}

/** 403 unless the caller may give the target credential its roles, level and merchant accounts. */
export function assertMayGrant(caller: Credential, target: Credential): void {
  const missing = target.roles.filter((role) => !caller.roles.includes(role));
  if (missing.length > 0) throw forbidden(`Not allowed: only roles the calling credential has can be granted; it lacks ${missing.join(', ')}`);
  if (!mayGrant(caller, target)) {
    throw forbidden('Not allowed: the credential cannot grant access above its own level or beyond the merchant accounts it reaches');
  }
}
