/**
 * The generated contract tests (generator.ts, runner.ts) against a running deployment, when
 * CONTRACT_CHECKOUT_URL, CONTRACT_MANAGEMENT_URL and CONTRACT_API_KEY are set (a credential with
 * every role of the demo company's data set), as `npm run contract` sets them. A 429 from the
 * deployment's rate limit is waited out (Retry-After), not judged. With CONTRACT_REPORT_FILE the
 * counts are written there as JSON for the command's summary.
 */
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { closeArranged } from '../arrange.js';
import { seedFromEnv, validCountFromEnv } from './generator.js';
import { createRunner, failureMessage, generatedOperations, type Runner } from './runner.js';

const operations = generatedOperations();
const deployed = process.env.CONTRACT_CHECKOUT_URL && process.env.CONTRACT_MANAGEMENT_URL && process.env.CONTRACT_API_KEY;

(deployed ? describe : describe.skip)('Generated contract tests against a deployment', () => {
  let runner: Runner;
  beforeAll(() => {
    runner = createRunner({
      target: {
        baseUrl: { checkout: process.env.CONTRACT_CHECKOUT_URL ?? '', management: process.env.CONTRACT_MANAGEMENT_URL ?? '' },
        headers: { 'X-API-Key': process.env.CONTRACT_API_KEY ?? '' },
        preferExample: false,
      },
      kind: 'deployment',
      seed: seedFromEnv(),
      validCount: validCountFromEnv(),
    });
  });
  afterAll(async () => {
    // The loopback receiver of the webhook and forward arrangements must not keep the run alive.
    await closeArranged();
    if (!runner) return;
    console.log(runner.summary());
    if (process.env.CONTRACT_REPORT_FILE) writeFileSync(process.env.CONTRACT_REPORT_FILE, JSON.stringify({ summary: runner.summary(), seed: runner.settings.seed, reports: runner.reports }, null, 1));
  });

  test.each(operations.map((op) => [`${op.area} ${op.operationId}`, op] as const))(
    'When %s gets generated valid and invalid requests, then each answer keeps the contract',
    async (_name, op) => {
      const report = await runner.run(op);
      if (report.problems.length > 0) throw new Error(failureMessage(runner.settings, report));
    },
    180_000,
  );
});
