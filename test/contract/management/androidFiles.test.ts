import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createManagementClient } from '../../../client/index.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildTestApk } from '../../../scripts/build-test-apk.mjs';
import { listFiles } from '../../helpers/boundary.js';
import { MERCHANT_KEY, COMPANY_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

const apk = buildTestApk as (o: { packageName?: string; versionCode?: number; versionName?: string; label?: string; padding?: number }) => Buffer;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ androidMaxApkBytes: 64 * 1024 });
});
afterAll(() => server.stop());

const c = { companyId: 'DemoCompany' };
async function upload(content: Buffer, name = 'app.apk', description?: string, path = 'androidApps', to: TestServer = server) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  if (description) form.append('description', description);
  const response = await fetch(`${to.managementUrl}/companies/DemoCompany/${path}`, { method: 'POST', headers: { 'X-API-Key': COMPANY_KEY }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
const getApp = (id: string) => server.management.GET('/companies/{companyId}/androidApps/{id}', { params: { path: { ...c, id } } });

describe('POST /companies/{companyId}/androidApps and GET /companies/{companyId}/androidApps/{id}', () => {
  test("When an APK is uploaded, then it is processing at first and ready with the manifest's package and versions after", async () => {
    const { status, body } = await upload(
      apk({ packageName: 'com.example.tipping', versionCode: 7, versionName: '1.7.0', label: 'Tipping' }),
      'tipping.apk',
      'Tip screen',
    );
    expect(status).toBe(200);
    expect((await getApp(body.id)).data?.status).toMatch(/processing|ready/);
    await server.android.idle();
    expect((await getApp(body.id)).data).toEqual({
      id: body.id,
      status: 'ready',
      packageName: 'com.example.tipping',
      versionCode: 7,
      versionName: '1.7.0',
      label: 'Tipping',
      description: 'Tip screen',
    });
  });

  test('When a second server in this process takes an upload, then the file goes to its own folder and it reads the APK, while the first keeps nothing of it', async () => {
    // The two apps share their validators (and so the multipart step): the folder is each app's.
    const second = await startServer({ androidMaxApkBytes: 64 * 1024, uploadDir: mkdtempSync(join(tmpdir(), 'second-uploads-')) });
    try {
      const firstFiles = listFiles(server.uploadDir);
      const { status, body } = await upload(
        apk({ packageName: 'com.example.second', versionCode: 2, versionName: '2.0', label: 'Second' }),
        'second.apk',
        undefined,
        'androidApps',
        second,
      );
      expect(status).toBe(200);
      const id = String(body.id);
      await second.android.idle();
      const app = await second.management.GET('/companies/{companyId}/androidApps/{id}', { params: { path: { ...c, id } } });
      expect(app.data).toMatchObject({ status: 'ready', packageName: 'com.example.second' });
      expect(listFiles(second.uploadDir).length).toBeGreaterThan(0);
      expect(listFiles(server.uploadDir)).toEqual(firstFiles);
    } finally {
      await second.stop();
    }
  });

  test('When a file that is not an APK is uploaded, then it ends invalid with an error code', async () => {
    const { body } = await upload(Buffer.from('this is not a zip file at all, just some text'), 'broken.apk');
    await server.android.idle();
    expect((await getApp(body.id)).data).toMatchObject({ status: 'invalid', errors: [{ errorCode: 'InvalidApk' }] });
  });

  test('When the APK is larger than the limit, then the answer is 413 and nothing is kept', async () => {
    // Tests run in random order: this one may come before any upload has made the folder.
    const before = listFiles(server.uploadDir);
    const { status, body } = await upload(Buffer.concat([apk({}), randomBytes(200 * 1024)]));
    expect(status).toBe(413);
    expect(body).toMatchObject({ status: 413, errorCode: '29_100' });
    expect(listFiles(server.uploadDir)).toEqual(before);
  });

  test("When the Adyen libraries' empty JSON body is sent, then the answer is 422 asking for the file", async () => {
    const response = await fetch(`${server.managementUrl}/companies/DemoCompany/androidApps`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { invalidFields: Array<{ name: string }> }).invalidFields[0]?.name).toBe('file');
  });

  test('When a credential without Android roles uploads, then the answer is 403', async () => {
    const limited = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    expect((await limited.GET('/companies/{companyId}/androidApps', { params: { path: c } })).response.status).toBe(403);
  });
});

describe('GET /companies/{companyId}/androidApps and PATCH /companies/{companyId}/androidApps/{id}', () => {
  test('When apps are listed with filters and pages, then only matching apps come, newest first, and reprocessing reads an app again', async () => {
    for (const versionCode of [1, 2, 3]) await upload(apk({ packageName: 'com.example.filters', versionCode }));
    await upload(apk({ packageName: 'com.example.other', versionCode: 2 }));
    await server.android.idle();
    const list = (query: Record<string, string | number>) => server.management.GET('/companies/{companyId}/androidApps', { params: { path: c, query } });
    expect((await list({ packageName: 'com.example.filters' })).data?.data?.map((a) => a.versionCode)).toEqual([3, 2, 1]);
    expect((await list({ packageName: 'com.example.filters', versionCode: 2 })).data?.data).toHaveLength(1);
    expect((await list({ versionCode: 2 })).data?.data?.map((a) => a.packageName).sort()).toEqual(['com.example.filters', 'com.example.other']);
    expect((await list({ packageName: 'com.example.filters', pageSize: 2, pageNumber: 2 })).data?.data?.map((a) => a.versionCode)).toEqual([1]);
    const id = (await list({ packageName: 'com.example.filters', versionCode: 1 })).data!.data![0]!.id;
    const reprocessed = await server.management.PATCH('/companies/{companyId}/androidApps/{id}', { params: { path: { ...c, id } } });
    expect(reprocessed.data).toEqual({ Message: 'The app is being reprocessed.' });
    await server.android.idle();
    expect((await getApp(id)).data?.status).toBe('ready');
  });

  test('When the same page is listed before and after an upload and its processing, then each answer shows the apps as they stand', async () => {
    // Version codes no other test filters on: the tests of this file run in a random order.
    const list = async () =>
      (await server.management.GET('/companies/{companyId}/androidApps', { params: { path: c, query: { packageName: 'com.example.relisted' } } })).data!.data!;
    await upload(apk({ packageName: 'com.example.relisted', versionCode: 701 }));
    await server.android.idle();
    // Twice: the second answer may come from what the first read remembered (SQLite).
    expect((await list()).map((a) => [a.versionCode, a.status])).toEqual([[701, 'ready']]);
    expect((await list()).map((a) => [a.versionCode, a.status])).toEqual([[701, 'ready']]);
    const { body } = await upload(apk({ packageName: 'com.example.relisted', versionCode: 702 }));
    // The new app is listed at once, newest first (its package is known once it is processed).
    const all = await server.management.GET('/companies/{companyId}/androidApps', { params: { path: c, query: { pageSize: 100 } } });
    expect(all.data!.data![0]!.id).toBe(body.id);
    await server.android.idle();
    expect((await list()).map((a) => [a.versionCode, a.status])).toEqual([
      [702, 'ready'],
      [701, 'ready'],
    ]);
  });

  test('When the page size is above 100, then the answer is 422', async () => {
    const { error } = await server.management.GET('/companies/{companyId}/androidApps', { params: { path: c, query: { pageSize: 101 } } });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'pageSize' })] });
  });

  test('When the page size is not given, then 20 apps come at most', async () => {
    for (let i = 0; i < 21; i++) await upload(apk({ packageName: 'com.example.many', versionCode: 100 + i }));
    await server.android.idle();
    const { data } = await server.management.GET('/companies/{companyId}/androidApps', { params: { path: c, query: { packageName: 'com.example.many' } } });
    expect(data?.data).toHaveLength(20);
  });
});

describe('POST /companies/{companyId}/androidCertificates and GET /companies/{companyId}/androidCertificates', () => {
  test('When a PEM certificate is uploaded, then its name, extension and validity come from it, and the name filter finds it', async () => {
    const pem = readFileSync(join(process.cwd(), 'test', 'fixtures', 'tls', 'localhost.crt'));
    const { status, body } = await upload(pem, 'wifi-ca.pem', 'Store Wi-Fi', 'androidCertificates');
    expect(status).toBe(200);
    const { data } = await server.management.GET('/companies/{companyId}/androidCertificates', { params: { path: c, query: { certificateName: 'wifi-ca' } } });
    expect(data?.data).toEqual([
      {
        id: body.id,
        name: 'wifi-ca',
        extension: '.pem',
        description: 'Store Wi-Fi',
        status: 'ready',
        notBefore: expect.any(String),
        notAfter: expect.any(String),
      },
    ]);
    expect(Date.parse(data!.data![0]!.notAfter!) - Date.parse(data!.data![0]!.notBefore!)).toBeGreaterThan(90 * 365 * 24 * 3600_000);
  });

  test.each([
    ['garbage.pem', Buffer.from('-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n')],
    ['certificate.txt', Buffer.from('hello')],
  ])('When %s is uploaded, then the answer is 422', async (name, content) => {
    const { status, body } = await upload(content, name, undefined, 'androidCertificates');
    expect(status).toBe(422);
    expect(body.invalidFields[0].name).toBe('file');
  });
});

describe('Rate limits', () => {
  test('When a rate-limited operation is called more often than allowed, then the answer is 429 with Retry-After', async () => {
    const limited = await startServer({ rateLimitPerMinute: 3 });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${limited.managementUrl}/companies/DemoCompany/androidApps`, { headers: { 'X-API-Key': COMPANY_KEY } });
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter = response.headers.get('retry-after');
          expect(await response.json()).toMatchObject({ status: 429, errorCode: '00_429' });
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // Another operation has its own budget.
      expect((await fetch(`${limited.managementUrl}/companies/DemoCompany/androidCertificates`, { headers: { 'X-API-Key': COMPANY_KEY } })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
