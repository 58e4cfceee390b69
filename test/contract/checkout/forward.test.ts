import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERR_FORWARD_DESTINATION, ERR_FORWARD_FAILED, ERR_TOKEN_NOT_FOUND } from '../../../server/kernel/errors.js';
import { rawCard } from '../../helpers/factories.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

/** A third party on loopback that records what it receives. */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let received: Received[] = [];
let respond: (req: IncomingMessage, res: ServerResponse) => void;
let thirdParty: Server;
let thirdPartyUrl: string;
let server: TestServer;

beforeAll(async () => {
  thirdParty = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      respond(req, res);
    });
  });
  await new Promise<void>((resolve) => thirdParty.listen(0, '127.0.0.1', resolve));
  thirdPartyUrl = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}`;
  server = await startServer({ forwardTimeoutMs: 300, forwardMaxResponseBytes: 4096 });
});
afterAll(async () => {
  await server.stop();
  thirdParty.closeAllConnections();
  await new Promise((resolve) => thirdParty.close(resolve));
});
afterEach(() => {
  received = [];
  respond = (_req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-vault': 'yes' }).end('{"id":"vault-1"}');
});
respond = (_req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-vault': 'yes' }).end('{"id":"vault-1"}');

const token = async (shopperReference = 'fw-shopper') =>
  (
    await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount: 'DemoMerchantECOM',
        shopperReference,
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: rawCard('5555555555554444', { holderName: 'Jane Doe', expiryMonth: '3' }),
      },
    })
  ).data!.id!;

const forward = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.checkout.POST('/forward', {
    params: { header: headers as never },
    body: {
      merchantAccount: 'DemoMerchantECOM',
      shopperReference: 'fw-shopper',
      baseUrl: thirdPartyUrl,
      request: {
        httpMethod: 'post',
        urlSuffix: '/cards',
        credentials: 'secret-token',
        headers: { Authorization: 'Bearer {{credentials}}', 'Content-Type': 'application/json' },
        body: '{"number":"{{number}}","expiry":"{{expiryMonth}}/{{expiryYear}}","name":"{{holderName}}"}',
      },
      ...body,
    } as never,
  });

describe('POST /forward', () => {
  test('When a token is forwarded, then the third party gets the card in place of the placeholders and its answer comes back', async () => {
    const id = await token();
    const { data, response } = await forward({ storedPaymentMethodId: id, merchantReference: 'fw-1' });
    expect(response.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/cards', body: '{"number":"5555555555554444","expiry":"03/2030","name":"Jane Doe"}' });
    expect(received[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(data).toEqual({
      pspReference: expect.any(String),
      storedPaymentMethodId: id,
      merchantReference: 'fw-1',
      response: { status: 201, headers: expect.objectContaining({ 'content-type': 'application/json', 'x-vault': 'yes' }), body: '{"id":"vault-1"}' },
    });
  });

  test('When a card is given with tokenize, then it is forwarded and stored for the shopper', async () => {
    const { data } = await forward({ paymentMethod: rawCard('4111111111111111'), options: { tokenize: true } });
    expect(received[0]?.body).toContain('4111111111111111');
    const list = await server.checkout.GET('/storedPaymentMethods', {
      params: { query: { shopperReference: 'fw-shopper', merchantAccount: 'DemoMerchantECOM' } },
    });
    expect(list.data?.storedPaymentMethods?.map((t) => t.id)).toContain(data?.storedPaymentMethodId);
  });

  test('When a repeat with the same Idempotency-Key arrives, then the third party is called once', async () => {
    const id = await token();
    const first = await forward({ storedPaymentMethodId: id }, { 'Idempotency-Key': 'forward-once' });
    const again = await forward({ storedPaymentMethodId: id }, { 'Idempotency-Key': 'forward-once' });
    expect(again.data).toEqual(first.data);
    expect(received).toHaveLength(1);
  });

  test('When the token belongs to another shopper, then it is not found and nothing is sent', async () => {
    const id = await token('fw-other');
    const { error } = await forward({ storedPaymentMethodId: id });
    expect(error?.errorCode).toBe(ERR_TOKEN_NOT_FOUND.code);
    expect(received).toHaveLength(0);
  });

  test.each([
    ['a host not on the allow-list', 'http://vault.invalid'],
    ['a non-HTTP scheme', 'ftp://127.0.0.1'],
    ['user info in the URL', 'http://user:pass@127.0.0.1'],
    ['not a URL at all', 'vault'],
  ])('When the destination has %s, then the answer is 422 code 15_001 and nothing is sent', async (_name, baseUrl) => {
    const { error } = await forward({ storedPaymentMethodId: await token(), baseUrl });
    expect(error).toMatchObject({ status: 422, errorCode: ERR_FORWARD_DESTINATION.code });
    expect(received).toHaveLength(0);
  });

  test('When the third party answers with a redirect, then it is not followed and the answer is 422', async () => {
    respond = (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    const { error } = await forward({ storedPaymentMethodId: await token() });
    expect(error?.errorCode).toBe(ERR_FORWARD_DESTINATION.code);
    expect(error?.message).toContain('redirect');
  });

  test('When the third party does not answer in time, then the answer is 422 code 15_002', async () => {
    respond = () => undefined;
    const { error } = await forward({ storedPaymentMethodId: await token() });
    expect(error).toMatchObject({ errorCode: ERR_FORWARD_FAILED.code, message: expect.stringContaining('300 ms') });
  });

  test('When the third party answers more than the size cap, then the answer is 422 code 15_002', async () => {
    respond = (_req, res) => res.writeHead(200).end('x'.repeat(10_000));
    const { error } = await forward({ storedPaymentMethodId: await token() });
    expect(error).toMatchObject({ errorCode: ERR_FORWARD_FAILED.code, message: expect.stringContaining('4096') });
  });
});

describe('POST /forward without the test exemption for private networks', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startServer({
      forwardAllowPrivateNetworks: false,
      forwardAllowList: { '*': ['127.0.0.1', 'localhost', '169.254.169.254', '10.0.0.1', '::1'] },
    });
  });
  afterAll(() => guarded.stop());

  test.each([['http://127.0.0.1:1'], ['http://localhost:1'], ['http://169.254.169.254'], ['http://10.0.0.1'], ['http://[::1]:1']])(
    'When the destination %s is private, loopback or link-local, then the answer is 422 even though it is on the allow-list',
    async (baseUrl) => {
      const stored = await fetch(`${guarded.checkoutUrl}/storedPaymentMethods`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
        body: JSON.stringify({
          merchantAccount: 'DemoMerchantECOM',
          shopperReference: 'fw-shopper',
          recurringProcessingModel: 'CardOnFile',
          paymentMethod: rawCard('4111111111111111'),
        }),
      });
      const { id } = (await stored.json()) as { id: string };
      const response = await fetch(`${guarded.checkoutUrl}/forward`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
        body: JSON.stringify({
          merchantAccount: 'DemoMerchantECOM',
          shopperReference: 'fw-shopper',
          storedPaymentMethodId: id,
          baseUrl,
          request: { httpMethod: 'post', body: '{}' },
        }),
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { errorCode: string }).errorCode).toBe(ERR_FORWARD_DESTINATION.code);
    },
  );
});
