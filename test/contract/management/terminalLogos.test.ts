import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { DEMO } from '../../../server/seed.js';
import { pngBase64, pngOf } from '../../helpers/png.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
// Each test gets its own server: logos set at one level show at every level below.
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.stop());

type Model = 'S1F2' | 'V400m' | 'e285';
const COMPANY_LOGO = pngBase64(4, 4, [255, 0, 0]);
const MERCHANT_LOGO = pngBase64(4, 4, [0, 255, 0]);
const STORE_LOGO = pngBase64(4, 4, [0, 0, 255]);
const TERMINAL_LOGO = pngBase64(4, 4, [9, 9, 9]);

const company = {
  get: (model: Model) => server.management.GET('/companies/{companyId}/terminalLogos', { params: { path: { companyId: DEMO.companyId }, query: { model } } }),
  set: (model: Model, data: string) =>
    server.management.PATCH('/companies/{companyId}/terminalLogos', { params: { path: { companyId: DEMO.companyId }, query: { model } }, body: { data } }),
};
const merchant = {
  get: (model: Model) =>
    server.management.GET('/merchants/{merchantId}/terminalLogos', { params: { path: { merchantId: DEMO.merchantPos }, query: { model } } }),
  set: (model: Model, data: string) =>
    server.management.PATCH('/merchants/{merchantId}/terminalLogos', { params: { path: { merchantId: DEMO.merchantPos }, query: { model } }, body: { data } }),
};
const byReference = { merchantId: DEMO.merchantPos, reference: 'AMS01' };
const storeByReference = {
  get: (model: Model) => server.management.GET('/merchants/{merchantId}/stores/{reference}/terminalLogos', { params: { path: byReference, query: { model } } }),
  set: (model: Model, data: string) =>
    server.management.PATCH('/merchants/{merchantId}/stores/{reference}/terminalLogos', { params: { path: byReference, query: { model } }, body: { data } }),
};
const store = {
  get: (model: Model) => server.management.GET('/stores/{storeId}/terminalLogos', { params: { path: { storeId: DEMO.storeAmsterdam }, query: { model } } }),
  set: (model: Model, data: string) =>
    server.management.PATCH('/stores/{storeId}/terminalLogos', { params: { path: { storeId: DEMO.storeAmsterdam }, query: { model } }, body: { data } }),
};
const terminal = {
  get: (terminalId: string = DEMO.terminalAmsterdam) => server.management.GET('/terminals/{terminalId}/terminalLogos', { params: { path: { terminalId } } }),
  set: (data: string, terminalId: string = DEMO.terminalAmsterdam) =>
    server.management.PATCH('/terminals/{terminalId}/terminalLogos', { params: { path: { terminalId } }, body: { data } }),
};

describe('GET /companies/{companyId}/terminalLogos', () => {
  test('When no level sets a logo, then data is absent; another company is 404', async () => {
    expect((await company.get('S1F2')).data).toEqual({});
    const other = await server.management.GET('/companies/{companyId}/terminalLogos', {
      params: { path: { companyId: 'OtherCompany' }, query: { model: 'S1F2' } },
    });
    expect(other.response.status).toBe(404);
  });

  test('When the model is missing or unknown, then the answer is 4xx', async () => {
    const missing = await server.management.GET('/companies/{companyId}/terminalLogos', { params: { path: { companyId: DEMO.companyId } } } as never);
    expect([400, 422]).toContain(missing.response.status);
    expect((await company.get('X9' as Model)).response.status).toBe(422);
  });
});

describe('PATCH /companies/{companyId}/terminalLogos', () => {
  test("When the company sets a logo for a model, then that model's terminals show it and other models do not", async () => {
    expect((await company.set('S1F2', COMPANY_LOGO)).data).toEqual({ data: COMPANY_LOGO });
    expect((await terminal.get()).data).toEqual({ data: COMPANY_LOGO });
    expect((await terminal.get(DEMO.terminalRotterdam)).data).toEqual({});
    expect((await company.get('V400m')).data).toEqual({});
  });

  test('When the company sends an empty logo, then its logo is gone and the default shows', async () => {
    await company.set('S1F2', COMPANY_LOGO);
    expect((await company.set('S1F2', '')).data).toEqual({});
    expect((await terminal.get()).data).toEqual({});
  });

  test.each([
    ['text that is not base64', 'not*base64!'],
    ['a JPEG file', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64')],
    ['a PNG file cut short', pngOf(4, 4).subarray(0, 40).toString('base64')],
    [
      'a PNG file with a damaged header',
      (() => {
        const file = pngOf(4, 4);
        file[20] = 0xff; // a byte of the IHDR width: its CRC no longer matches
        return file.toString('base64');
      })(),
    ],
    ['a PNG file with bytes after its end', Buffer.concat([pngOf(4, 4), Buffer.from('trailing')]).toString('base64')],
  ])('When the logo is %s, then the answer is 422 naming data and nothing is stored', async (_what, data) => {
    const { error } = await company.set('S1F2', data);
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'data' })] });
    expect((await company.get('S1F2')).data).toEqual({});
  });

  test("When an image is larger than the model's limit, then it is refused for that model and taken for a model with a larger screen", async () => {
    const wide = pngBase64(481, 10);
    expect((await company.set('e285', wide)).error).toMatchObject({ status: 422, detail: expect.stringContaining('480x480') });
    expect((await company.set('S1F2', wide)).response.status).toBe(200);
    expect((await company.set('S1F2', pngBase64(721, 10))).response.status).toBe(422);
  });
});

describe('GET /merchants/{merchantId}/terminalLogos', () => {
  test("When only the company sets a logo, then the merchant account shows the company's", async () => {
    await company.set('V400m', COMPANY_LOGO);
    expect((await merchant.get('V400m')).data).toEqual({ data: COMPANY_LOGO });
  });
});

describe('PATCH /merchants/{merchantId}/terminalLogos', () => {
  test("When the merchant account sets its own logo, then its stores and terminals show it, and an empty logo brings the company's back", async () => {
    await company.set('S1F2', COMPANY_LOGO);
    expect((await merchant.set('S1F2', MERCHANT_LOGO)).data).toEqual({ data: MERCHANT_LOGO });
    expect((await storeByReference.get('S1F2')).data).toEqual({ data: MERCHANT_LOGO });
    expect((await terminal.get()).data).toEqual({ data: MERCHANT_LOGO });
    expect((await merchant.set('S1F2', '')).data).toEqual({ data: COMPANY_LOGO });
    expect((await terminal.get()).data).toEqual({ data: COMPANY_LOGO });
  });
});

describe('GET /merchants/{merchantId}/stores/{reference}/terminalLogos', () => {
  test('When the store is addressed by its reference, then it shows what the store id shows; an unknown reference is 404', async () => {
    await store.set('S1F2', STORE_LOGO);
    expect((await storeByReference.get('S1F2')).data).toEqual({ data: STORE_LOGO });
    const unknown = await server.management.GET('/merchants/{merchantId}/stores/{reference}/terminalLogos', {
      params: { path: { merchantId: DEMO.merchantPos, reference: 'NOPE' }, query: { model: 'S1F2' } },
    });
    expect(unknown.response.status).toBe(404);
  });
});

describe('PATCH /merchants/{merchantId}/stores/{reference}/terminalLogos', () => {
  test('When the store sets a logo by reference, then only its terminals show it', async () => {
    await merchant.set('V400m', MERCHANT_LOGO);
    await storeByReference.set('V400m', STORE_LOGO);
    // The Rotterdam terminal (a V400m) is in another store: it keeps the merchant account's logo.
    expect((await terminal.get(DEMO.terminalRotterdam)).data).toEqual({ data: MERCHANT_LOGO });
    expect((await store.get('V400m')).data).toEqual({ data: STORE_LOGO });
  });
});

describe('GET /stores/{storeId}/terminalLogos', () => {
  test('When an unknown store is asked, then the answer is 404', async () => {
    const { response } = await server.management.GET('/stores/{storeId}/terminalLogos', {
      params: { path: { storeId: 'STNOSUCH' }, query: { model: 'S1F2' } },
    });
    expect(response.status).toBe(404);
  });
});

describe('PATCH /stores/{storeId}/terminalLogos', () => {
  test("When the store's logo is removed, then the merchant account's shows again", async () => {
    await merchant.set('S1F2', MERCHANT_LOGO);
    await store.set('S1F2', STORE_LOGO);
    expect((await terminal.get()).data).toEqual({ data: STORE_LOGO });
    expect((await store.set('S1F2', '')).data).toEqual({ data: MERCHANT_LOGO });
  });
});

describe('GET /terminals/{terminalId}/terminalLogos', () => {
  test("When a terminal's logo is read, then it is the one for the terminal's own model", async () => {
    await company.set('V400m', COMPANY_LOGO);
    expect((await terminal.get(DEMO.terminalRotterdam)).data).toEqual({ data: COMPANY_LOGO });
    expect((await terminal.get(DEMO.terminalAmsterdam)).data).toEqual({});
  });
});

describe('PATCH /terminals/{terminalId}/terminalLogos', () => {
  test('When a terminal sets its own logo, then only it shows it, and an empty logo brings the store level back', async () => {
    await store.set('S1F2', STORE_LOGO);
    expect((await terminal.set(TERMINAL_LOGO)).data).toEqual({ data: TERMINAL_LOGO });
    expect((await store.get('S1F2')).data).toEqual({ data: STORE_LOGO });
    expect((await terminal.set('')).data).toEqual({ data: STORE_LOGO });
  });

  test("When a logo is too large for the terminal's model, then the answer is 422", async () => {
    const { error } = await terminal.set(pngBase64(801, 801), DEMO.terminalRotterdam);
    expect(error).toMatchObject({ status: 422, detail: expect.stringContaining('V400m') });
  });
});
