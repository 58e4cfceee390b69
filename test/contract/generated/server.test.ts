/**
 * The generated contract tests (generator.ts, runner.ts) against the in-process server: for
 * every operation of both specs, valid requests and one request per broken constraint.
 * CONTRACT_SEED=<n> repeats a run (the seed is printed), CONTRACT_SEED=random explores.
 */
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { closeArranged } from '../arrange.js';
import { seedFromEnv, validCountFromEnv } from './generator.js';
import { createRunner, failureMessage, generatedOperations, type Runner } from './runner.js';

const operations = generatedOperations();

describe('Generated contract tests against the server', () => {
  let server: TestServer;
  let runner: Runner;
  beforeAll(async () => {
    // The rate-limited operations (terminal settings, Android lists) get more than 120 requests a minute here.
    server = await startServer({ rateLimitPerMinute: 1_000_000 });
    runner = createRunner({
      target: { baseUrl: { checkout: server.checkoutUrl, management: server.managementUrl }, headers: { 'X-API-Key': COMPANY_KEY }, preferExample: false },
      kind: 'server',
      seed: seedFromEnv(),
      validCount: validCountFromEnv(),
    });
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
