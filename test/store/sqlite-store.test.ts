import { afterEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticate } from '../../server/kernel/auth/credentials.js';
import { ALL_ROLES, SERVICE_ROLES } from '../../server/kernel/auth/roles.js';
import { DEMO, seedDemoData } from '../../server/seed.js';
import { SqliteStore } from '../../server/store/engines/sqlite.js';
import type { Payment } from '../../server/store/types.js';

const migrationsDir = join(process.cwd(), 'server', 'store', 'migrations', 'sqlite');
let store: SqliteStore;
const open = () =>
  (store = new SqliteStore({
    path: join(mkdtempSync(join(tmpdir(), 'store-')), 'db.sqlite'),
    synchronous: 'FULL',
    migrationsDir,
    hashApiKey: (key) => `h-${key}`,
  }));
afterEach(() => store.close());

describe('SqliteStore', () => {
  test('When transactions are queued together, then one failing is rolled back alone and the others are committed', async () => {
    open();
    const results = await Promise.allSettled([
      store.transaction(async (tx) => tx.settings.put('a', '1')),
      store.transaction(async (tx) => {
        await tx.settings.put('b', '2');
        throw new Error('refused');
      }),
      store.transaction(async (tx) => tx.settings.put('c', '3')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const values = await store.read(async (tx) => [await tx.settings.get('a'), await tx.settings.get('b'), await tx.settings.get('c')]);
    expect(values).toEqual(['1', undefined, '3']);
  });

  test('When a read runs while a transaction has written but not committed, then it does not see the write; after the commit it does', async () => {
    open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const writer = store.transaction(async (tx) => {
      await tx.settings.put('k', 'v');
      written();
      await held;
    });
    await wrote;
    expect(await store.read((tx) => tx.settings.get('k'))).toBeUndefined();
    release();
    await writer;
    expect(await store.read((tx) => tx.settings.get('k'))).toBe('v');
  });

  test('When a read-only view is asked to write, then it fails and nothing is written', async () => {
    open();
    // Compared by message: the native module's errors may come from another test file's context, which `toThrow` does not recognise.
    const outcome = await store
      .read((tx) => tx.settings.put('x', 'y'))
      .then(
        () => 'wrote',
        (error: Error) => error.message,
      );
    expect(outcome).toMatch(/readonly/i);
    expect(await store.transaction((tx) => tx.settings.get('x'))).toBeUndefined();
  });

  test('When many transactions run at once, then each sees the writes of those before it (serial order)', async () => {
    open();
    await store.transaction((tx) => tx.settings.put('counter', '0'));
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.transaction(async (tx) => {
          const n = Number(await tx.settings.get('counter'));
          await tx.settings.put('counter', String(n + 1));
        }),
      ),
    );
    expect(await store.read((tx) => tx.settings.get('counter'))).toBe('50');
  });

  test('When credentials and companies change, then the next read sees the change although the reads before were remembered', async () => {
    store = new SqliteStore({
      path: join(mkdtempSync(join(tmpdir(), 'store-')), 'db.sqlite'),
      synchronous: 'FULL',
      migrationsDir,
      hashApiKey: (key) => `h-${key}`,
    });
    const key = 'remembered-company-key-000000000001';
    await seedDemoData(store, new Date(), { company: key });
    const now = () => new Date();
    const caller = () => authenticate(store, { apiKey: key }, now);
    // Twice: the second answer may come from what the first remembered.
    expect((await caller()).active).toBe(true);
    expect((await caller()).associatedMerchantAccounts).toEqual([]);

    await store.transaction(async (tx) => {
      const credential = (await tx.credentials.getForUpdate(DEMO.companyCredentialId))!;
      await tx.credentials.update({ ...credential, associatedMerchantAccounts: [DEMO.merchantEcom] });
    });
    expect((await caller()).associatedMerchantAccounts).toEqual([DEMO.merchantEcom]);

    expect((await store.read((tx) => tx.companies.get(DEMO.companyId)))?.clockOffsetSeconds).toBe(0);
    expect((await store.read((tx) => tx.companies.get(DEMO.companyId)))?.clockOffsetSeconds).toBe(0);
    await store.transaction((tx) => tx.companies.advanceClock(DEMO.companyId, 3600));
    expect((await store.read((tx) => tx.companies.get(DEMO.companyId)))?.clockOffsetSeconds).toBe(3600);

    await store.transaction(async (tx) => {
      const credential = (await tx.credentials.getForUpdate(DEMO.companyCredentialId))!;
      await tx.credentials.update({ ...credential, active: false });
    });
    await expect(caller()).rejects.toMatchObject({ status: 401 });
  });

  test('When a payment is written with the state it was read in, then only what changed is written and the other columns keep what the row holds', async () => {
    open();
    const now = new Date();
    await seedDemoData(store, now, { company: 'partial-update-company-key-00000001' });
    const at = now.toISOString();
    const payment: Payment = {
      pspReference: 'PARTIALUPDATE0001',
      companyId: DEMO.companyId,
      merchantAccount: DEMO.merchantEcom,
      reference: 'order-1',
      currency: 'EUR',
      authorisedValue: 1000,
      originalValue: 1000,
      capturedValue: 0,
      refundedValue: 0,
      chargedBackValue: 0,
      resultCode: 'Authorised',
      refusalReason: null,
      refusalReasonCode: null,
      authCode: '123456',
      cancelled: false,
      captureClosed: false,
      autoCaptured: false,
      captureDelayHours: null,
      autoCaptureAt: null,
      multiplePartialCaptures: false,
      cardBrand: 'visa',
      cardBin: '411111',
      cardLastFour: '1111',
      expiryMonth: '3',
      expiryYear: '2030',
      holderName: 'A Shopper',
      shopperReference: null,
      returnUrl: 'https://shop.example.com/return',
      orderPspReference: null,
      detailsSubmitted: false,
      paymentMethodType: 'scheme',
      paymentData: null,
      sessionId: null,
      paymentLinkId: null,
      storedPaymentMethodId: null,
      createdAt: at,
      updatedAt: at,
      methodState: { step: 'first' },
      settleAt: null,
    };
    await store.transaction((tx) => tx.payments.insert(payment));
    const read = (await store.read((tx) => tx.payments.get(payment.pspReference)))!;
    // Another writer changes a column after this state was read (on one engine this cannot interleave a
    // transaction; it stands for a column the change below does not touch).
    await store.transaction((tx) => tx.payments.update({ ...read, holderName: 'Changed Elsewhere' }));

    const captured = {
      ...read,
      capturedValue: 1000,
      captureClosed: true,
      methodState: { step: 'second' },
      updatedAt: new Date(now.getTime() + 1000).toISOString(),
    };
    await store.transaction((tx) => tx.payments.update(captured, read));
    expect(await store.read((tx) => tx.payments.get(payment.pspReference))).toEqual({ ...captured, holderName: 'Changed Elsewhere' });

    // Without the state it was read in, the whole payment is written.
    await store.transaction((tx) => tx.payments.update(captured));
    expect(await store.read((tx) => tx.payments.get(payment.pspReference))).toEqual(captured);
  });

  test('When a transaction writes a remembered table and is rolled back, then the transactions after it read what was committed', async () => {
    open();
    await seedDemoData(store, new Date(), { company: 'remembered-company-key-000000000002' });
    const ecom = (await store.transaction((tx) => tx.merchants.get(DEMO.merchantEcom)))!;
    for (const together of [1, 3]) {
      // A missing merchant, read twice on the writer: the second answer may come from what the first remembered.
      expect(await store.transaction((tx) => tx.merchants.get('M2'))).toBeUndefined();
      expect(await store.transaction((tx) => tx.merchants.get('M2'))).toBeUndefined();
      // Alone (rolled back whole) and in a batch with others (rolled back to its savepoint).
      const outcomes = await Promise.allSettled(
        Array.from({ length: together }, (_, i) =>
          store.transaction(async (tx) => {
            if (i > 0) return tx.merchants.get(DEMO.merchantEcom);
            await tx.merchants.insert({ ...ecom, id: 'M2' });
            // Its own write is seen inside the transaction, although the read before it was remembered.
            if (!(await tx.merchants.get('M2'))) return 'not seen';
            throw new Error('refused');
          }),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', ...Array.from({ length: together - 1 }, () => 'fulfilled')]);
      expect(await store.transaction((tx) => tx.merchants.get('M2'))).toBeUndefined();
      expect(await store.read((tx) => tx.merchants.get('M2'))).toBeUndefined();
    }
  });

  test('When a database seeded before a role was known is opened, then the seeded company credential is given every role', async () => {
    open();
    const path = (store as unknown as { db: { name: string } }).db.name;
    await seedDemoData(store, new Date(), { company: 'migrated-company-key-00000000000001' });
    // As an earlier version left it: the service's own roles only, and the migration that adds Adyen's roles (0071) not applied.
    await store.transaction(async (tx) => {
      const credential = (await tx.credentials.getForUpdate(DEMO.companyCredentialId))!;
      await tx.credentials.update({ ...credential, roles: [...SERVICE_ROLES] });
    });
    await store.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(path);
    raw.prepare('DELETE FROM schema_migrations WHERE version = 71').run();
    raw.close();
    store = new SqliteStore({ path, synchronous: 'FULL', migrationsDir, hashApiKey: (key) => `h-${key}` });
    const roles = (await store.read((tx) => tx.credentials.get(DEMO.companyCredentialId)))!.roles;
    expect([...roles].sort()).toEqual([...ALL_ROLES].sort());
  });
});
