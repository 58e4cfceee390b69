/**
 * The generated contract tests (generator.ts, runner.ts) against a running deployment, when
 * CONTRACT_CHECKOUT_URL, CONTRACT_MANAGEMENT_URL and CONTRACT_API_KEY are set (a credential with
 * every role of the demo company's data set), as `npm run contract` sets them. A 429 from the
 * deployment's rate limit is waited out (Retry-After), not judged. With CONTRACT_REPORT_FILE the
 * counts are written there as JSON for the command's summary.
 *
 * The client-side area is called at CONTRACT_CLIENTSIDE_URL with the demo merchant credential's
 * client key, read with the API key. A key that cannot read it leaves that area out, and the
 * summary says so: the other areas need nothing of it.
 */
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { closeArranged } from '../arrange.js';
import { seedFromEnv, validCountFromEnv } from './generator.js';
import { clientKeyOf, createRunner, failureMessage, generatedOperations, type Runner } from './runner.js';

const operations = generatedOperations();
const deployed = process.env.CONTRACT_CHECKOUT_URL && process.env.CONTRACT_MANAGEMENT_URL && process.env.CONTRACT_API_KEY;

(deployed ? describe : describe.skip)('Generated contract tests against a deployment', () => {
  let runner: Runner;
  /** Why the client-side area is left out, when it is. */
  let skipped: string | undefined;
  beforeAll(async () => {
    const target = {
      baseUrl: { checkout: process.env.CONTRACT_CHECKOUT_URL ?? '', management: process.env.CONTRACT_MANAGEMENT_URL ?? '', clientside: process.env.CONTRACT_CLIENTSIDE_URL },
      headers: { 'X-API-Key': process.env.CONTRACT_API_KEY ?? '' },
      preferExample: false,
    };
    let clientKey: string | undefined;
    if (!target.baseUrl.clientside) skipped = 'client-side area skipped: no client-side URL';
    else {
      const key = await clientKeyOf(target);
      if ('clientKey' in key) clientKey = key.clientKey;
      else skipped = `client-side area skipped: the API key cannot read the demo merchant credential's client key (${key.reason})`;
    }
    runner = createRunner({ target, kind: 'deployment', seed: seedFromEnv(), validCount: validCountFromEnv(), clientKey });
  });
  afterAll(async () => {
    // The loopback receiver of the webhook and forward arrangements must not keep the run alive.
    await closeArranged();
    if (!runner) return;
    console.log(`${runner.summary()}${skipped ? `; ${skipped}` : ''}`);
    if (process.env.CONTRACT_REPORT_FILE)
      writeFileSync(process.env.CONTRACT_REPORT_FILE, JSON.stringify({ summary: runner.summary(), seed: runner.settings.seed, reports: runner.reports, skipped }, null, 1));
  });

  test.each(operations.map((op) => [`${op.area} ${op.operationId}`, op] as const))(
    'When %s gets generated valid and invalid requests, then each answer keeps the contract',
    async (_name, op) => {
      if (op.area === 'clientside' && skipped) return;
      const report = await runner.run(op);
      if (report.problems.length > 0) throw new Error(failureMessage(runner.settings, report));
    },
    180_000,
  );
});
