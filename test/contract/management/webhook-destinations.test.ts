/**
 * Where a webhook may send events, as the configuration decides: in the sandbox's default a
 * receiver on loopback needs no allow-list entry (and gets the events); WEBHOOK_ALLOW_LOOPBACK=false
 * locks a shared sandbox down to FORWARD_ALLOWLIST; private networks other than loopback stay
 * refused either way. The servers here run without the tests' usual exemptions (no allow-list, no
 * private networks), as `npm start` does.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { loadConfig } from '../../../server/config.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { Receiver } from '../../helpers/receiver.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

const merchantId = 'DemoMerchantECOM';
const NO_EXEMPTIONS = { forwardAllowList: {}, forwardAllowPrivateNetworks: false };

const create = (server: TestServer, url: string) =>
  server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId } },
    body: { type: 'standard', url, active: true, communicationFormat: 'json' },
  });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver.stop());

describe('Webhook destinations in the default sandbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(NO_EXEMPTIONS);
  });
  afterAll(() => server.stop());

  test('When the sandbox starts on its defaults, then receivers on loopback are allowed and production mode does not allow them', () => {
    expect(loadConfig({}).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ APP_MODE: 'production', CARD_ENCRYPTION_KEY: '6b'.repeat(32), SERVER_SECRET: '5e'.repeat(32) }).webhookAllowLoopback).toBe(false);
    expect(() =>
      loadConfig({ APP_MODE: 'production', CARD_ENCRYPTION_KEY: '6b'.repeat(32), SERVER_SECRET: '5e'.repeat(32), WEBHOOK_ALLOW_LOOPBACK: 'true' }),
    ).toThrow('WEBHOOK_ALLOW_LOOPBACK is for sandbox mode only');
  });

  test('When a webhook points at a receiver on 127.0.0.1 that is on no allow-list, then it is set up, and a payment event reaches the receiver', async () => {
    const { data, response } = await create(server, receiver.url);
    expect(response.status).toBe(200);
    const test = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', {
      params: { path: { merchantId, webhookId: data!.id } },
      body: {},
    });
    expect(test.data?.data?.[0]).toMatchObject({ status: 'success' });
    const pspReference = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.items().find((item) => item.pspReference === pspReference)).toMatchObject({ eventCode: 'AUTHORISATION', success: 'true' });
  });

  test.each([['http://localhost:1/hooks'], ['http://[::1]:1/hooks'], ['http://127.8.9.10:1/hooks']])(
    'When a webhook points at the loopback address %s, then it is set up',
    async (url) => {
      expect((await create(server, url)).response.status).toBe(200);
    },
  );

  test.each([['http://10.0.0.1/hooks'], ['http://169.254.169.254/latest'], ['http://192.168.1.20/hooks'], ['https://events.example.com/hooks']])(
    'When a webhook points at %s, which is not loopback, then the answer is 422 on the url as before',
    async (url) => {
      const { error, response } = await create(server, url);
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ invalidFields: [expect.objectContaining({ name: 'url' })] });
    },
  );
});

describe('Webhook destinations with WEBHOOK_ALLOW_LOOPBACK=false', () => {
  let server: TestServer;
  beforeAll(async () => {
    // As an operator sets it: read from the variable, as the server reads it.
    server = await startServer({ ...NO_EXEMPTIONS, webhookAllowLoopback: loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'false' }).webhookAllowLoopback });
  });
  afterAll(() => server.stop());

  test.each([['http://127.0.0.1:1/hooks'], ['http://localhost:1/hooks'], ['http://[::1]:1/hooks']])(
    'When a webhook points at %s, then the answer is 422: the host is not on the outbound allow-list',
    async (url) => {
      const { error, response } = await create(server, url);
      expect(response.status).toBe(422);
      expect(JSON.stringify(error)).toContain('is not on the outbound allow-list of merchant account DemoMerchantECOM');
    },
  );
});
