import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERR_TOKEN_NOT_FOUND } from '../../../server/kernel/errors.js';
import { freshDatabase, type TestDatabase } from '../../helpers/database.js';
import { buildPaymentRequest, rawCard } from '../../helpers/factories.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let database: TestDatabase;
const dir = mkdtempSync(join(tmpdir(), 'tokens-'));
beforeAll(async () => {
  database = await freshDatabase(dir);
  server = await startServer(database.config);
});
afterAll(async () => {
  await server.stop();
  await database.drop();
});

const store = (shopperReference: string, number = '5555341244441115', extra: Record<string, unknown> = {}) =>
  server.checkout.POST('/storedPaymentMethods', {
    body: {
      merchantAccount: 'DemoMerchantECOM',
      shopperReference,
      recurringProcessingModel: 'CardOnFile',
      paymentMethod: rawCard(number, { holderName: 'Jane Doe' }),
      ...extra,
    },
  });
const list = (shopperReference: string) =>
  server.checkout.GET('/storedPaymentMethods', { params: { query: { shopperReference, merchantAccount: 'DemoMerchantECOM' } } });

describe('POST /storedPaymentMethods', () => {
  test('When a card is stored, then the token shows the last four digits, expiry and holder name only, and a RECURRING_CONTRACT event is recorded', async () => {
    const { data, response } = await store('shopper-a', '5555341244441115', { shopperEmail: 'a@example.com' });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{16}$/),
      type: 'scheme',
      brand: 'mc',
      cardBin: '555534',
      lastFour: '1115',
      expiryMonth: '3',
      expiryYear: '2030',
      holderName: 'Jane Doe',
      shopperReference: 'shopper-a',
      shopperEmail: 'a@example.com',
      supportedRecurringProcessingModels: ['CardOnFile'],
    });
    const events = await server.store.transaction((tx) => tx.outbox.listEvents('DemoMerchantECOM', 0, 1000));
    expect(events.find((e) => e.pspReference === data!.id)).toMatchObject({
      eventCode: 'RECURRING_CONTRACT',
      success: true,
      additionalData: { storedPaymentMethodId: data!.id, shopperReference: 'shopper-a' },
    });
  });

  test('When cards are stored, then neither the full number nor the security code is in the database files', async () => {
    await store('shopper-b', '4988438843884305');
    const bytes = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => statSync(join(dir, f)).isFile())
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('');
    const tables = JSON.stringify(await database.dump());
    for (const stored of [bytes, tables]) {
      expect(stored).not.toContain('4988438843884305');
      expect(stored).not.toContain('5555341244441115');
    }
    const [row] = (await database.rows("SELECT encrypted_number FROM stored_payment_methods WHERE shopper_reference = 'shopper-b'")) as Array<{
      encrypted_number: string;
    }>;
    expect(row?.encrypted_number).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  test.each([
    ['a shopper reference of 2 characters', { shopperReference: 'ab' }],
    ['an unknown recurring processing model', { recurringProcessingModel: 'Weekly' }],
  ])('When the request has %s, then the answer is 422', async (_name, overrides) => {
    const { response } = await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount: 'DemoMerchantECOM',
        shopperReference: 'shopper-c',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: rawCard('4111111111111111'),
        ...overrides,
      } as never,
    });
    expect(response.status).toBe(422);
  });

  test('When an expired card is stored, then the answer is 422', async () => {
    const { response } = await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount: 'DemoMerchantECOM',
        shopperReference: 'shopper-c',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: rawCard('4111111111111111', { expiryYear: '2020' }),
      },
    });
    expect(response.status).toBe(422);
  });
});

describe('GET /storedPaymentMethods and DELETE /storedPaymentMethods/{storedPaymentMethodId}', () => {
  test('When a shopper has two tokens and one is deleted, then only the other is listed', async () => {
    const first = (await store('shopper-d', '4111111111111111')).data!;
    const second = (await store('shopper-d', '5555555555554444')).data!;
    expect((await list('shopper-d')).data?.storedPaymentMethods?.map((t) => t.id)).toEqual([first.id, second.id]);
    const deleted = await server.checkout.DELETE('/storedPaymentMethods/{storedPaymentMethodId}', {
      params: { path: { storedPaymentMethodId: first.id! }, query: { shopperReference: 'shopper-d', merchantAccount: 'DemoMerchantECOM' } },
    });
    expect(deleted.response.status).toBe(204);
    expect((await list('shopper-d')).data).toEqual({
      merchantAccount: 'DemoMerchantECOM',
      shopperReference: 'shopper-d',
      storedPaymentMethods: [expect.objectContaining({ id: second.id })],
    });
  });

  test("When another shopper's token is deleted, then it is not found (800) and stays", async () => {
    const token = (await store('shopper-e')).data!;
    const { error } = await server.checkout.DELETE('/storedPaymentMethods/{storedPaymentMethodId}', {
      params: { path: { storedPaymentMethodId: token.id! }, query: { shopperReference: 'shopper-other', merchantAccount: 'DemoMerchantECOM' } },
    });
    expect(error).toMatchObject({ status: 422, errorCode: ERR_TOKEN_NOT_FOUND.code });
    expect((await list('shopper-e')).data?.storedPaymentMethods).toHaveLength(1);
  });
});

describe('POST /payments with tokens', () => {
  test('When a stored card pays for its shopper, then the payment is authorised with that card', async () => {
    const token = (await store('shopper-f', '5555555555554444')).data!;
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({
        shopperReference: 'shopper-f',
        shopperInteraction: 'ContAuth',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: { type: 'scheme', storedPaymentMethodId: token.id! },
      }),
    });
    expect(data).toMatchObject({
      resultCode: 'Authorised',
      paymentMethod: { brand: 'mc' },
      additionalData: { cardSummary: '4444', 'tokenization.storedPaymentMethodId': token.id },
    });
  });

  test("When another shopper's token is used, then the payment gets 422 code 800", async () => {
    const token = (await store('shopper-g')).data!;
    const { error } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ shopperReference: 'shopper-x', paymentMethod: { type: 'scheme', storedPaymentMethodId: token.id! } }),
    });
    expect(error?.errorCode).toBe(ERR_TOKEN_NOT_FOUND.code);
  });

  test('When a payment asks to store its card, then the token is created and announced in the response', async () => {
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({
        shopperReference: 'shopper-h',
        storePaymentMethod: true,
        recurringProcessingModel: 'Subscription',
        paymentMethod: rawCard('4111111111111111'),
      }),
    });
    expect(data?.additionalData).toMatchObject({ 'tokenization.shopperReference': 'shopper-h', 'tokenization.store.operationType': 'created' });
    const tokens = (await list('shopper-h')).data?.storedPaymentMethods;
    expect(tokens).toEqual([
      expect.objectContaining({ id: data?.additionalData?.['tokenization.storedPaymentMethodId'], supportedRecurringProcessingModels: ['Subscription'] }),
    ]);
  });
});
