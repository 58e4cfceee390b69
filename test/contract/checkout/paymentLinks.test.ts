import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  ERR_EXPIRES_AT_TOO_LATE,
  ERR_LINK_EXPIRED,
  ERR_LINK_NOT_PAYABLE,
  ERR_METADATA_KEY_SIZE,
  ERR_METADATA_SIZE,
  ERR_RECURRING_MODEL_REQUIRED,
} from '../../../server/kernel/errors.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const create = (overrides: Record<string, unknown> = {}) =>
  server.checkout.POST('/paymentLinks', { body: { merchantAccount: 'DemoMerchantECOM', reference: 'invoice-1', amount: eur(4200), ...overrides } as never });
const get = (linkId: string) => server.checkout.GET('/paymentLinks/{linkId}', { params: { path: { linkId } } });
const payOnPage = (url: string, card: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith', ...card }),
  });

describe('POST /paymentLinks', () => {
  test('When a link is created, then it is active, not reusable, expires in 24 hours and its url is a page of this server', async () => {
    const before = server.clock.now().getTime();
    const { data, response } = await create({ description: 'Invoice 1', countryCode: 'NL', shopperLocale: 'nl-NL' });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      status: 'active',
      reusable: false,
      merchantAccount: 'DemoMerchantECOM',
      reference: 'invoice-1',
      amount: eur(4200),
      description: 'Invoice 1',
      countryCode: 'NL',
    });
    expect(data?.url).toBe(`${server.baseUrl}/payByLink/${data?.id}`);
    expect(Date.parse(data!.expiresAt) - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(Date.parse(data!.expiresAt) - before).toBeLessThanOrEqual(24 * 3600_000 + 5000);
    const page = await fetch(data!.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('EUR 42.00');
  });

  test('When metadata holds checkout.linkId, then its value is replaced by the link id', async () => {
    const { data } = await create({ metadata: { campaign: 'winter', 'checkout.linkId': 'anything' } });
    expect(data?.metadata).toEqual({ campaign: 'winter', 'checkout.linkId': data?.id });
  });

  test('When metadata has 20 pairs, then it is accepted; with 21, the answer is 422 code 177', async () => {
    const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, 'v']));
    expect((await create({ metadata: pairs(20) })).response.status).toBe(201);
    const { error } = await create({ metadata: pairs(21) });
    expect(error).toMatchObject({ status: 422, errorCode: ERR_METADATA_SIZE.code, message: expect.stringContaining('Metadata size exceeds limit') });
  });

  test('When a metadata key is longer than 20 characters, then the answer is 422 code 178', async () => {
    const { error } = await create({ metadata: { ['k'.repeat(21)]: 'v' } });
    expect(error).toMatchObject({ errorCode: ERR_METADATA_KEY_SIZE.code, message: expect.stringContaining('Metadata key size exceeds limit') });
  });

  test('When the expiry is 70 days away it is accepted; at 71 days the answer is 422 code 14_0379', async () => {
    const inDays = (d: number) => new Date(server.clock.now().getTime() + d * 24 * 3600_000 - 60_000).toISOString();
    expect((await create({ expiresAt: inDays(70) })).response.status).toBe(201);
    expect((await create({ expiresAt: inDays(71) })).error?.errorCode).toBe(ERR_EXPIRES_AT_TOO_LATE.code);
  });

  test('When storing cards is enabled without a recurring processing model, then the answer is 422 naming it', async () => {
    const { error } = await create({ storePaymentMethodMode: 'enabled', shopperReference: 'shopper-1' });
    expect(error).toMatchObject({ errorCode: ERR_RECURRING_MODEL_REQUIRED.code, message: expect.stringContaining('recurringProcessingModel') });
  });

  test.each([
    ['a description of 281 characters', { description: 'd'.repeat(281) }, 'description'],
    ['a shopper statement with a forbidden character', { shopperStatement: 'Shop #1' }, 'shopperStatement'],
    ['an unknown required shopper field', { requiredShopperFields: ['shoeSize'] }, 'requiredShopperFields.0'],
    ['a merchant category code of 3 digits', { mcc: '599' }, 'mcc'],
  ])('When the link has %s, then the answer is 422 naming the field', async (_name, overrides, field) => {
    const { error, response } = await create(overrides);
    expect(response.status).toBe(422);
    expect(error?.message).toContain(`'${field}'`);
  });

  test('When a description has 280 characters and the statement allowed characters, then it is accepted', async () => {
    expect((await create({ description: 'd'.repeat(280), shopperStatement: "Shop 1, order/7 - it's +ok?*" })).response.status).toBe(201);
  });
});

describe('GET /paymentLinks/{linkId} and PATCH /paymentLinks/{linkId}', () => {
  test('When the link is paid on its page, then a link that is not reusable is completed and cannot be paid or expired again', async () => {
    const link = (await create()).data!;
    const paid = await payOnPage(link.url);
    expect(await paid.text()).toContain('Authorised');
    expect((await get(link.id)).data?.status).toBe('completed');
    const again = await payOnPage(link.url);
    expect(again.status).toBe(422);
    expect(await again.text()).toContain(ERR_LINK_NOT_PAYABLE.code);
    const { error } = await server.checkout.PATCH('/paymentLinks/{linkId}', { params: { path: { linkId: link.id } }, body: { status: 'expired' } });
    expect(error?.errorCode).toBe(ERR_LINK_NOT_PAYABLE.code);
  });

  test('When a reusable link is paid twice, then it stays active', async () => {
    const link = (await create({ reusable: true })).data!;
    await payOnPage(link.url);
    await payOnPage(link.url);
    expect((await get(link.id)).data).toMatchObject({ status: 'active', reusable: true });
  });

  test('When a refused payment is made on the page, then the link stays active', async () => {
    const link = (await create()).data!;
    const page = await payOnPage(link.url, { holderName: 'DECLINED' });
    expect(await page.text()).toContain('Refused');
    expect((await get(link.id)).data?.status).toBe('active');
  });

  test('When the link is expired on request, then it is expired and its page refuses payments', async () => {
    const link = (await create()).data!;
    const { data } = await server.checkout.PATCH('/paymentLinks/{linkId}', { params: { path: { linkId: link.id } }, body: { status: 'expired' } });
    expect(data?.status).toBe('expired');
    const page = await payOnPage(link.url);
    expect(page.status).toBe(422);
    expect(await page.text()).toContain(ERR_LINK_EXPIRED.code);
  });

  test("When the link's time passes on the sandbox clock, then it reads as expired", async () => {
    const link = (await create({ expiresAt: new Date(server.clock.now().getTime() + 120_000).toISOString() })).data!;
    expect((await get(link.id)).data?.status).toBe('active');
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 121 } });
    expect((await get(link.id)).data?.status).toBe('expired');
  });

  test('When a 3D Secure card pays on the page, then the shopper authenticates and the link completes', async () => {
    const link = (await create()).data!;
    const started = await fetch(link.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ number: '4212345678910006', expiryMonth: '03', expiryYear: '2030', holderName: 'John Smith' }),
    });
    expect(started.status).toBe(303);
    const issuer = started.headers.get('location')!;
    const complete = await fetch(`${issuer}/complete?outcome=authorised`, { redirect: 'manual' });
    const back = await fetch(complete.headers.get('location')!);
    expect(await back.text()).toContain('Authorised');
    expect((await get(link.id)).data?.status).toBe('completed');
  });

  test('When the link does not exist, then the answer is 422', async () => {
    expect((await get('PL0000000000000000')).response.status).toBe(422);
  });
});
