/**
 * Helpers for the authorization boundary tests: a test server on a fresh database of the run's
 * engine (so that every table can be dumped), snapshots of everything a refused request must
 * leave alone (every table, the upload folder, the outbox), and credentials inserted through the
 * store with their API keys.
 */
import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Config } from '../../server/config.js';
import { newClientKey } from '../../server/kernel/auth/credentials.js';
import type { Merchant } from '../../server/store/types.js';
import type { Store } from '../../server/store/tx.js';
import { freshDatabase } from './database.js';
import { startServer, type TestServer } from './start-server.js';

export interface Snapshot {
  /** Every row of every table, by table name, in a stable order. */
  tables: Record<string, unknown[]>;
  /** Every file under the upload folder (recursive), as `relative/path:size`. */
  uploads: string[];
  /** The outbox (webhook events), counted apart so that a difference there reads clearly. */
  outboxEvents: number;
}

export interface BoundaryServer {
  server: TestServer;
  dir: string;
  /** Waits for background work that writes (APK processing), then reads everything. */
  snapshot(): Promise<Snapshot>;
  stop(): Promise<void>;
}

/** Every file under `dir`, recursively, with its size; an absent folder has none. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(`${relative(dir, full)}:${statSync(full).size}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** Starts the in-process server on a fresh database of this run's engine, with its uploads in a fresh temporary folder. */
export async function startBoundaryServer(overrides: Partial<Config> = {}): Promise<BoundaryServer> {
  const dir = mkdtempSync(join(tmpdir(), 'boundary-'));
  const database = await freshDatabase(dir);
  const server = await startServer({ ...database.config, uploadDir: join(dir, 'uploads'), validateResponses: false, ...overrides });
  return {
    server,
    dir,
    async snapshot() {
      await server.android.idle();
      // The request log records every request, refused ones too: it is the record of the call, not
      // a change the call made. It is written after the answer, so it is left out here (and not
      // read: it grows with every request).
      const tables = await database.dump({ except: ['request_log'] });
      return { tables, uploads: listFiles(server.uploadDir), outboxEvents: tables.events?.length ?? -1 };
    },
    async stop() {
      await server.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface NewCredential {
  id: string;
  companyId?: string;
  merchantId: string | null;
  roles: readonly string[];
  associatedMerchantAccounts?: string[];
}

/** Inserts an active credential with one API key (hashed as the seed does) and returns the key. */
export async function insertCredential(store: Store, c: NewCredential): Promise<string> {
  const apiKey = `boundary-${c.id}-${randomBytes(12).toString('hex')}`;
  await store.transaction(async (tx) => {
    const createdAt = new Date().toISOString();
    const companyId = c.companyId ?? 'DemoCompany';
    await tx.credentials.insert({
      id: c.id,
      companyId,
      merchantId: c.merchantId,
      username: `ws_${c.id}@Company.${companyId}`,
      description: `boundary test credential ${c.id}`,
      active: true,
      roles: [...c.roles],
      allowedIpAddresses: [],
      associatedMerchantAccounts: c.associatedMerchantAccounts ?? [],
      clientKey: newClientKey(),
      createdAt,
    });
    await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(apiKey), credentialId: c.id, createdAt, expiresAt: null });
  });
  return apiKey;
}

/** Adds a key to an existing credential (as a rotation would), returning it. */
export async function addApiKey(store: Store, credentialId: string): Promise<string> {
  const apiKey = `boundary-extra-${credentialId}-${randomBytes(12).toString('hex')}`;
  await store.transaction((tx) =>
    tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(apiKey), credentialId, createdAt: new Date().toISOString(), expiresAt: null }),
  );
  return apiKey;
}

/** Another company with one merchant account (for isolation between companies). */
export async function insertCompany(store: Store, companyId: string, merchantId: string): Promise<void> {
  await store.transaction(async (tx) => {
    const createdAt = new Date().toISOString();
    await tx.companies.insert({ id: companyId, name: companyId, createdAt });
    const merchant: Merchant = {
      id: merchantId,
      companyId,
      name: merchantId,
      description: merchantId,
      reference: merchantId,
      status: 'Active',
      captureDelay: 'manual',
      multiplePartialCaptures: false,
      defaultShopperInteraction: 'Ecommerce',
      primarySettlementCurrency: 'EUR',
      shopWebAddress: 'https://other.example.com',
      merchantCity: 'Utrecht',
      pricingPlan: 'Standard',
      createdAt,
    };
    await tx.merchants.insert(merchant);
  });
}

/** The rows that differ between two snapshots, by table (for readable failures). */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names].filter((n) => JSON.stringify(before.tables[n]) !== JSON.stringify(after.tables[n])).sort();
}

/** Fails unless a request left every table, the upload folder and the outbox as they were. */
export function expectUnchanged(before: Snapshot, after: Snapshot): void {
  // Tables compared as JSON text; jest's deep equality over every table (a third of the boundary
  // test's CPU) only for one that differs, where its diff shows the rows.
  const changed = changedTables(before, after);
  for (const name of changed) expect({ [name]: after.tables[name] }).toEqual({ [name]: before.tables[name] });
  expect(changed).toEqual([]);
  expect(after.uploads).toEqual(before.uploads);
  expect(after.outboxEvents).toBe(before.outboxEvents);
}

/**
 * A request sent as written (fetch refuses a GET with a body): the status, headers and parsed body.
 */
export function rawRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
    const req = httpRequest(url, { method: options.method, headers: { ...(body && { 'Content-Length': String(body.length) }), ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The credentials and resources the boundary tests call with and about. */
export const BOUNDARY = {
  companyAll: 'S2-BNDCOMPANYALL1',
  companyAccountsRead: 'S2-BNDACCOUNTSRD1',
  companyCheckout: 'S2-BNDCHECKOUT001',
  ecomAll: 'S2-BNDECOMALL0001',
  posAll: 'S2-BNDPOSALL00001',
  /** Targets of key rotation, so that rotating never touches a key the tests call with. */
  companyTarget: 'S2-BNDCOTARGET001',
  ecomTarget: 'S2-BNDECTARGET001',
  ecomStore: 'STBOUNDARYECOM0000000001',
  ecomStoreReference: 'ECOM01',
  ecomTerminal: 'V400m-900000001',
} as const;

export type BoundaryKeys = Record<'companyAll' | 'companyAccountsRead' | 'companyCheckout' | 'ecomAll' | 'posAll', string>;

/**
 * Inserts the boundary credentials (every role at company level, one role at company level,
 * every role at each merchant account), two rotation targets, and a store with a terminal of
 * DemoMerchantECOM (the seed's stores belong to DemoMerchantPOS).
 */
export async function insertBoundaryFixtures(
  store: Store,
  allRoles: readonly string[],
  roles: { accountsRead: string; checkout: string },
): Promise<BoundaryKeys> {
  const keys: BoundaryKeys = {
    companyAll: await insertCredential(store, { id: BOUNDARY.companyAll, merchantId: null, roles: allRoles }),
    companyAccountsRead: await insertCredential(store, { id: BOUNDARY.companyAccountsRead, merchantId: null, roles: [roles.accountsRead] }),
    companyCheckout: await insertCredential(store, { id: BOUNDARY.companyCheckout, merchantId: null, roles: [roles.checkout] }),
    ecomAll: await insertCredential(store, { id: BOUNDARY.ecomAll, merchantId: 'DemoMerchantECOM', roles: allRoles }),
    posAll: await insertCredential(store, { id: BOUNDARY.posAll, merchantId: 'DemoMerchantPOS', roles: allRoles }),
  };
  await insertCredential(store, { id: BOUNDARY.companyTarget, merchantId: null, roles: [roles.checkout] });
  await insertCredential(store, { id: BOUNDARY.ecomTarget, merchantId: 'DemoMerchantECOM', roles: [roles.checkout] });
  await store.transaction(async (tx) => {
    await tx.stores.insert({
      id: BOUNDARY.ecomStore,
      merchantId: 'DemoMerchantECOM',
      reference: BOUNDARY.ecomStoreReference,
      description: 'Boundary test store',
      shopperStatement: 'Boundary store',
      phoneNumber: '+31301234567',
      address: { country: 'NL', city: 'Utrecht' },
      status: 'active',
      details: {},
    });
    await tx.terminals.insertTerminal({
      id: BOUNDARY.ecomTerminal,
      companyId: 'DemoCompany',
      merchantId: 'DemoMerchantECOM',
      storeId: BOUNDARY.ecomStore,
      model: 'V400m',
      brand: 'Verifone',
      serialNumber: '900000001',
      firmwareVersion: 'Verifone_VOS 1.102.6',
      countryCode: 'NL',
      status: 'boarded',
    });
  });
  return keys;
}
