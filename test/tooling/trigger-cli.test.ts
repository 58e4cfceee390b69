/**
 * `npm run trigger` (scripts/trigger.mjs), spawned against the in-process test server: it prints
 * what the sandbox queued and exits 0, prints the refusal and exits 1, and exits 2 on bad arguments.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { storedPayment } from '../helpers/methods.js';
import { authorisedPayment, capture } from '../helpers/payments.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

function trigger(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), 'scripts', 'trigger.mjs'), ...args],
      { timeout: 30_000, env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('npm run trigger -- <eventCode> --psp <pspReference>', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  test('When a capture is failed with --amount, then the command prints the queued event and exits 0, and the amount is no longer captured', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 1000);
    const result = await trigger(['CAPTURE_FAILED', '--psp', psp, '--amount', '300', '--url', server.checkoutUrl, '--api-key', COMPANY_KEY]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({
      eventCode: 'CAPTURE_FAILED',
      paymentPspReference: psp,
      amount: { currency: 'EUR', value: 300 },
      status: 'queued',
    });
    expect((await storedPayment(server, psp))!.capturedValue).toBe(700);
  });

  test('When a dispute flow is started with --outcome and --reason-code, then the command prints its first event and exits 0', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 1000);
    const result = await trigger([
      'CHARGEBACK',
      '--psp',
      psp,
      '--outcome',
      'WON',
      '--reason-code',
      '13.1',
      '--url',
      server.checkoutUrl,
      '--api-key',
      COMPANY_KEY,
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({
      eventCode: 'NOTIFICATION_OF_CHARGEBACK',
      originalReference: psp,
      reason: 'Merchandise/Services Not Received',
      disputeStatus: 'Undefended',
      status: 'queued',
    });
    expect(await server.store.read((tx) => tx.disputes.ofPayment(psp))).toMatchObject({ scenario: 'chargebackWon', reasonCode: '13.1' });
  });

  test('When the key and the address come from BASE_URL and API_KEY, then they are used', async () => {
    const psp = await authorisedPayment(server);
    const result = await trigger(['EXPIRE', '--psp', psp], { BASE_URL: server.baseUrl, API_KEY: COMPANY_KEY });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ eventCode: 'EXPIRE', pspReference: psp });
  });

  test('When the sandbox refuses the event, then the command prints the refusal and exits 1', async () => {
    const psp = await authorisedPayment(server);
    const result = await trigger(['OFFER_CLOSED', '--psp', psp, '--url', server.checkoutUrl, '--api-key', COMPANY_KEY]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('422');
    expect(result.stderr).toContain('22_030');
  });

  test('When a merchant-level key is used, then the command prints the 403 and exits 1', async () => {
    const psp = await authorisedPayment(server);
    const result = await trigger(['EXPIRE', '--psp', psp, '--url', server.checkoutUrl, '--api-key', MERCHANT_KEY]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('403');
  });

  test('When the arguments are wrong, then the command prints its usage and exits 2', async () => {
    expect(await trigger(['NOT_AN_EVENT', '--psp', 'X', '--api-key', COMPANY_KEY])).toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
    expect(await trigger(['EXPIRE', '--api-key', COMPANY_KEY])).toMatchObject({ code: 2, stderr: expect.stringContaining('--psp is required') });
    expect(await trigger(['CHARGEBACK', '--psp', 'X', '--outcome', 'DRAW', '--api-key', COMPANY_KEY])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--outcome is WON or LOST'),
    });
  });
});
