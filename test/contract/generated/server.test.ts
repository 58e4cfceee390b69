/**
 * The generated contract tests (generator.ts, runner.ts) against the in-process server: for
 * every operation of the three specs, valid requests and one request per broken constraint.
 * CONTRACT_SEED=<n> repeats a run (the seed is printed), CONTRACT_SEED=random explores.
 */
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { closeArranged } from '../arrange.js';
import { seedFromEnv, validCountFromEnv } from './generator.js';
import { clientKeyOf, createRunner, failureMessage, generatedOperations, type Runner } from './runner.js';

const operations = generatedOperations();

describe('Generated contract tests against the server', () => {
  let server: TestServer;
  let runner: Runner;
  beforeAll(async () => {
    // The rate-limited operations (terminal settings, Android lists) get more than 120 requests a minute here.
    server = await startServer({ rateLimitPerMinute: 1_000_000 });
    const target = { baseUrl: { checkout: server.checkoutUrl, management: server.managementUrl, clientside: server.clientsideUrl }, headers: { 'X-API-Key': COMPANY_KEY }, preferExample: false };
    const key = await clientKeyOf(target);
    if (!('clientKey' in key)) throw new Error(`the demo merchant credential's client key: ${key.reason}`);
    runner = createRunner({ target, kind: 'server', seed: seedFromEnv(), validCount: validCountFromEnv(), clientKey: key.clientKey });
  });
  afterAll(async () => {
    if (runner) console.log(runner.summary());
    await closeArranged();
    await server?.stop();
  });

  test.each(operations.map((op) => [`${op.area} ${op.operationId}`, op] as const))('When %s gets generated valid and invalid requests, then each answer keeps the contract', async (_name, op) => {
    const report = await runner.run(op);
    if (report.problems.length > 0) throw new Error(failureMessage(runner.settings, report));
    // The full Adyen request schemas (/payments: over a thousand constraints) and the payment method
    // union (fifty-odd members) take longer than the default 30 s.
  }, 180_000);
});
