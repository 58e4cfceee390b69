import { randomBytes } from 'node:crypto';
import { newApiKey, newClientKey, newCredentialId, newCredentialUsername, newPassword } from '../../kernel/auth/credentials.js';
import { parseOrigin } from '../../kernel/auth/origins.js';
import { assertMayGrant, assertMayManage } from '../../kernel/auth/policy.js';
import { KNOWN_ROLES_SOURCE, knownRole, ROLES } from '../../kernel/auth/roles.js';
import { ApiError, invalidField, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { AllowedOrigin, Credential, Page } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany, visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';

/** How long a rotated-out key keeps working: 24 hours, as in Adyen's key rotation (API keys and client keys alike). */
export const OLD_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

export interface CredentialView {
  credential: Credential;
  origins: AllowedOrigin[];
}

async function withOrigins(tx: Tx, credential: Credential): Promise<CredentialView> {
  return { credential, origins: await tx.credentials.origins(credential.id) };
}

const notFound = (id: string) => new ApiError(ERR_NOT_FOUND_ENTITY, { message: `API credential ${id} not found` });

export async function listCompanyCredentials(tx: Tx, caller: Credential, companyId: string, page: PageRequest): Promise<Page<CredentialView>> {
  await visibleCompany(tx, caller, companyId);
  const { items, total } = await tx.credentials.list(companyId, null, (page.pageNumber - 1) * page.pageSize, page.pageSize);
  return { items: await Promise.all(items.map((c) => withOrigins(tx, c))), total };
}

export async function listMerchantCredentials(tx: Tx, caller: Credential, merchantId: string, page: PageRequest): Promise<Page<CredentialView>> {
  const merchant = await visibleMerchant(tx, caller, merchantId);
  const { items, total } = await tx.credentials.list(merchant.companyId, merchant.id, (page.pageNumber - 1) * page.pageSize, page.pageSize);
  return { items: await Promise.all(items.map((c) => withOrigins(tx, c))), total };
}

/** How a credential is read: to change it, it is locked until the transaction ends (PostgreSQL). */
export interface ReadOptions {
  forUpdate?: boolean;
}

const read = (tx: Tx, id: string, options: ReadOptions) => (options.forUpdate ? tx.credentials.getForUpdate(id) : tx.credentials.get(id));

/** A company-level credential of a company the caller sees. */
export async function companyCredential(tx: Tx, caller: Credential, companyId: string, id: string, options: ReadOptions = {}): Promise<CredentialView> {
  await visibleCompany(tx, caller, companyId);
  const credential = await read(tx, id, options);
  if (!credential || credential.companyId !== companyId || credential.merchantId !== null) throw notFound(id);
  return withOrigins(tx, credential);
}

/** A credential of a merchant account the caller reaches. */
export async function merchantCredential(tx: Tx, caller: Credential, merchantId: string, id: string, options: ReadOptions = {}): Promise<CredentialView> {
  await visibleMerchant(tx, caller, merchantId);
  const credential = await read(tx, id, options);
  if (!credential || credential.merchantId !== merchantId) throw notFound(id);
  return withOrigins(tx, credential);
}

/** Where a credential is named: a company's credentials or a merchant account's (the path of the operation). */
export type CredentialPath = { companyId: string; apiCredentialId: string } | { merchantId: string; apiCredentialId: string };

/** The credential the path names, as the caller may see it. */
export function credentialAt(tx: Tx, caller: Credential, path: CredentialPath, options: ReadOptions = {}): Promise<CredentialView> {
  return 'companyId' in path
    ? companyCredential(tx, caller, path.companyId, path.apiCredentialId, options)
    : merchantCredential(tx, caller, path.merchantId, path.apiCredentialId, options);
}

/** The credential the path names, locked, after checking that the caller may change it (403 otherwise). */
export async function manageableCredentialAt(tx: Tx, caller: Credential, path: CredentialPath): Promise<CredentialView> {
  const view = await credentialAt(tx, caller, path, { forUpdate: true });
  assertMayManage(caller, view.credential);
  return view;
}

// ---------------------------------------------------------------------------------------------
// What a request may set: checked before anything is written.
// ---------------------------------------------------------------------------------------------

/**
 * Known roles only (no credential can hold another, so none could grant it), each spelled as
 * stored (Adyen's dash and case variants name the same role); repeats are dropped.
 */
function checkedRoles(roles: readonly string[]): string[] {
  const known: string[] = [];
  for (const name of roles) {
    const role = knownRole(name);
    if (role === undefined) throw invalidField('roles', name, `${name} is not a known API credential role: the known ones are ${KNOWN_ROLES_SOURCE}`);
    known.push(role);
  }
  return [...new Set(known)];
}

/** Origins as browsers send them (`scheme://host[:port]`), each once. */
function checkedOrigins(values: readonly string[]): string[] {
  const origins: string[] = [];
  for (const value of values) {
    const parsed = parseOrigin(value);
    if ('problem' in parsed) throw invalidField('allowedOrigins', value, `${value} ${parsed.problem}`);
    if (origins.includes(parsed.origin)) throw invalidField('allowedOrigins', value, `${value} is listed twice`);
    origins.push(parsed.origin);
  }
  return origins;
}

/** Merchant accounts of the company, each once; another company's is reported like one that does not exist. */
export async function checkedMerchantAccounts(tx: Tx, companyId: string, ids: readonly string[], field = 'associatedMerchantAccounts'): Promise<string[]> {
  for (const id of ids) {
    const merchant = await tx.merchants.get(id);
    if (!merchant || merchant.companyId !== companyId) throw invalidField(field, id, `${id} is not a merchant account of company ${companyId}`);
  }
  return [...new Set(ids)];
}

async function freeUsername(tx: Tx, companyId: string): Promise<string> {
  for (;;) {
    const username = newCredentialUsername(companyId);
    if (!(await tx.credentials.usernameTaken(username))) return username;
  }
}

async function insertOrigin(tx: Tx, now: Date, credentialId: string, domain: string): Promise<AllowedOrigin> {
  const origin: AllowedOrigin = { id: `S2-${randomBytes(6).toString('hex').toUpperCase()}`, credentialId, domain, createdAt: now.toISOString() };
  await tx.credentials.insertOrigin(origin);
  return origin;
}

// ---------------------------------------------------------------------------------------------
// Creating and changing credentials.
// ---------------------------------------------------------------------------------------------

export interface CredentialInput {
  roles?: string[] | undefined;
  allowedOrigins?: string[] | undefined;
  description?: string | undefined;
  associatedMerchantAccounts?: string[] | undefined;
}

export interface CredentialChange extends CredentialInput {
  active?: boolean | undefined;
  subjectDN?: string | undefined;
}

export interface NewCredential {
  view: CredentialView;
  /** Shown once, in the answer to the creation; only keyed hashes are stored. */
  apiKey: string;
  password: string;
}

/**
 * POST /companies/{companyId}/apiCredentials and POST /merchants/{merchantId}/apiCredentials: a
 * new active credential with an API key, a password and a client key. What the request sets is
 * checked first (422); then that the caller could grant it: its own roles, level and merchant
 * accounts (403). The API key and the password are returned once; only their keyed hashes are kept.
 */
export async function createCredential(
  tx: Tx,
  now: Date,
  caller: Credential,
  level: { companyId: string; merchantId: string | null },
  input: CredentialInput,
): Promise<NewCredential> {
  const roles = checkedRoles(input.roles ?? []);
  const origins = checkedOrigins(input.allowedOrigins ?? []);
  const associated = level.merchantId === null ? await checkedMerchantAccounts(tx, level.companyId, input.associatedMerchantAccounts ?? []) : [];
  const credential: Credential = {
    id: newCredentialId(),
    companyId: level.companyId,
    merchantId: level.merchantId,
    username: await freeUsername(tx, level.companyId),
    description: input.description ?? '',
    active: true,
    roles,
    allowedIpAddresses: [],
    associatedMerchantAccounts: associated,
    clientKey: newClientKey(),
    createdAt: now.toISOString(),
  };
  assertMayGrant(caller, credential);
  await tx.credentials.insert(credential);
  const password = newPassword();
  await tx.credentials.setPasswordHash(credential.id, tx.credentials.hashKey(password));
  const apiKey = newApiKey();
  await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(apiKey), credentialId: credential.id, createdAt: now.toISOString(), expiresAt: null });
  for (const domain of origins) await insertOrigin(tx, now, credential.id, domain);
  return { view: await withOrigins(tx, credential), apiKey, password };
}

/**
 * A credential may not lock itself out: deactivating itself, or dropping its own API credentials
 * role, would leave it unable to undo the change. Adyen allows both; this service refuses them
 * (422) and another credential with the role can still do either.
 */
function refuseLockOut(caller: Credential, updated: Credential): void {
  if (updated.id !== caller.id) return;
  if (!updated.active) throw invalidField('active', 'false', 'a credential cannot deactivate itself (it would be locked out): another credential must do it');
  if (caller.roles.includes(ROLES.apiCredentialsReadWrite) && !updated.roles.includes(ROLES.apiCredentialsReadWrite)) {
    throw invalidField(
      'roles',
      ROLES.apiCredentialsReadWrite,
      `a credential cannot remove its own role ${ROLES.apiCredentialsReadWrite} (it would be locked out): another credential must do it`,
    );
  }
}

/**
 * PATCH …/apiCredentials/{apiCredentialId}: the caller may manage the credential (checked when it
 * was read), and may grant what it becomes. `allowedOrigins` replaces the list (origins that stay
 * keep their identifiers). Deactivation takes effect at once: every request reads `active` from
 * the database.
 */
export async function updateCredential(tx: Tx, now: Date, caller: Credential, view: CredentialView, change: CredentialChange): Promise<CredentialView> {
  const target = view.credential;
  const origins = change.allowedOrigins === undefined ? undefined : checkedOrigins(change.allowedOrigins);
  const updated: Credential = {
    ...target,
    ...(change.active !== undefined && { active: change.active }),
    ...(change.roles !== undefined && { roles: checkedRoles(change.roles) }),
    ...(change.description !== undefined && { description: change.description }),
    ...(change.subjectDN !== undefined && { subjectDN: change.subjectDN }),
    ...(change.associatedMerchantAccounts !== undefined &&
      target.merchantId === null && { associatedMerchantAccounts: await checkedMerchantAccounts(tx, target.companyId, change.associatedMerchantAccounts) }),
  };
  refuseLockOut(caller, updated);
  assertMayGrant(caller, updated);
  await tx.credentials.update(updated);
  if (origins) {
    for (const old of view.origins) if (!origins.includes(old.domain)) await tx.credentials.deleteOrigin(old.id);
    for (const domain of origins) if (!view.origins.some((o) => o.domain === domain)) await insertOrigin(tx, now, target.id, domain);
  }
  return withOrigins(tx, updated);
}

/**
 * Rotates a credential's key: the new key works at once and is returned once (only its hash is
 * kept); every key that was current keeps working for 24 hours on the company's clock.
 */
export async function rotateApiKey(tx: Tx, now: Date, credential: Credential): Promise<string> {
  const graceEnds = new Date(now.getTime() + OLD_KEY_GRACE_MS).toISOString();
  for (const key of await tx.credentials.keys(credential.id)) {
    if (key.expiresAt === null) await tx.credentials.updateKey({ ...key, expiresAt: graceEnds });
  }
  const apiKey = newApiKey();
  await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(apiKey), credentialId: credential.id, createdAt: now.toISOString(), expiresAt: null });
  return apiKey;
}

/**
 * Replaces a credential's client key: the new one works at once; the old one keeps working for
 * 24 hours on the company's clock (pages in shoppers' browsers still carry it), as API keys do.
 * The credential must have been read locked, so that two rotations do not both retire one key.
 */
export async function rotateClientKey(tx: Tx, now: Date, credential: Credential): Promise<string> {
  await tx.credentials.insertRetiredClientKey({
    clientKey: credential.clientKey,
    credentialId: credential.id,
    expiresAt: new Date(now.getTime() + OLD_KEY_GRACE_MS).toISOString(),
  });
  const clientKey = newClientKey();
  await tx.credentials.update({ ...credential, clientKey });
  return clientKey;
}

// ---------------------------------------------------------------------------------------------
// Allowed origins.
// ---------------------------------------------------------------------------------------------

/** POST /me/allowedOrigins and POST …/apiCredentials/{apiCredentialId}/allowedOrigins: one more origin for the credential's client key. */
export async function addAllowedOrigin(tx: Tx, now: Date, credential: Credential, domain: string): Promise<AllowedOrigin> {
  const parsed = parseOrigin(domain);
  if ('problem' in parsed) throw invalidField('domain', domain, parsed.problem);
  const existing = await tx.credentials.origins(credential.id);
  if (existing.some((o) => o.domain === parsed.origin)) throw invalidField('domain', domain, `${parsed.origin} is already allowed`);
  return insertOrigin(tx, now, credential.id, parsed.origin);
}

/** An allowed origin of the credential; another credential's is not found. */
export async function allowedOriginOf(tx: Tx, credential: Credential, id: string): Promise<AllowedOrigin> {
  const origin = await tx.credentials.getOrigin(id);
  if (!origin || origin.credentialId !== credential.id) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Allowed origin ${id} not found` });
  return origin;
}
