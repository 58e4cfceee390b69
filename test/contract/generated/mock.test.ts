/**
 * The generated contract tests (generator.ts, runner.ts) against the Prism mock of the three specs:
 * the same requests as against the server (without arrangements: path parameters are the
 * parameter examples). CONTRACT_SEED=<n> repeats a run, CONTRACT_SEED=random explores.
 */
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { seedFromEnv, validCountFromEnv } from './generator.js';
import { type PrismMocks, startPrism } from './prism.js';
import { createRunner, failureMessage, generatedOperations, type Runner } from './runner.js';

const operations = generatedOperations();

describe('Generated contract tests against the Prism mock', () => {
  let mocks: PrismMocks | undefined;
  let runner: Runner;
  beforeAll(async () => {
    mocks = await startPrism();
    // The mock checks that a client key is there, not which one.
    const clientKey = 'test_CONTRACT0MOCK0CLIENT0KEY0000000000000000000001';
    runner = createRunner({ target: { baseUrl: mocks.baseUrl, headers: { 'X-API-Key': COMPANY_KEY }, preferExample: false }, kind: 'mock', seed: seedFromEnv(), validCount: validCountFromEnv(), clientKey });
  }, 90_000);
  afterAll(async () => {
    if (runner) console.log(runner.summary());
    await mocks?.stop();
  });

  test.each(operations.map((op) => [`${op.area} ${op.operationId}`, op] as const))('When %s gets generated valid and invalid requests, then each answer keeps the contract', async (_name, op) => {
    const report = await runner.run(op).catch((error: Error) => {
      throw new Error(`${error.message}\n${mocks?.health()}`, { cause: error });
    });
    if (report.problems.length > 0) throw new Error(failureMessage(runner.settings, report));
    // The full Adyen request schemas (/payments: over a thousand constraints) and the payment method
    // union (fifty-odd members) take longer than the default 30 s.
  }, 180_000);
});
