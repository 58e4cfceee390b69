// The spec's example folders, and the examples replayed against the Prism mock: no server, no
// store, so they run once per npm test (test/engine-independent.json). examples.test.ts replays
// the same examples against the server on both engines.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { prismArgs } from '../../scripts/prism.mjs';
import { COMPANY_KEY } from '../helpers/keys.js';
import { freePort, waitFor } from '../helpers/spawn-server.js';
import { type Area as AnyArea, type KeyedArea as Area, exampleCases, loadBundled, replay, responseValidator, type Target } from './suite.js';

const AREAS: Area[] = ['checkout', 'management'];
const cases = AREAS.flatMap((area) => exampleCases(area));
const validators = Object.fromEntries(AREAS.map((area) => [area, responseValidator(area)])) as Record<AnyArea, ReturnType<typeof responseValidator>>;
const named = cases.map((c) => [`${c.operation.operationId} ${c.scenario} → ${c.status}`, c] as const);

/** Every operationId of a bundled spec's paths, with whether it has anything an example could show. */
function operationsOf(area: AnyArea): Array<{ operationId: string; bodiless: boolean }> {
  const spec = loadBundled(area);
  const responseOf = (node: any) => (typeof node.$ref === 'string' ? spec.components.responses[node.$ref.split('/').pop()] : node);
  return Object.values<Record<string, any>>(spec.paths).flatMap((item) =>
    Object.values<any>(item)
      .filter((op) => op?.operationId)
      .map((op) => ({
        operationId: op.operationId as string,
        // No request body and no success with content: a DELETE answering 204, replayed as `no-content`.
        bodiless: !op.requestBody && Object.entries<any>(op.responses).every(([status, node]) => Number(status) >= 300 || !responseOf(node).content),
      })),
  );
}

/** The example folders of an area (`errors` holds the shared error examples) and the webhooks that name theirs. */
function exampleFoldersOf(area: AnyArea): { folders: string[]; webhooks: string[] } {
  const spec = loadBundled(area);
  const webhooks = Object.values<Record<string, any>>(spec.webhooks ?? {}).flatMap((item) =>
    Object.values<any>(item)
      .map((op) => op?.operationId as string | undefined)
      .filter((id): id is string => id !== undefined),
  );
  const folders = readdirSync(join(process.cwd(), 'spec', area, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'errors')
    .map((entry) => entry.name);
  return { folders, webhooks };
}

/** Every spec: the client-side one's examples are replayed by the boundary test (with client keys) and its own contract tests. */
const SPECS: AnyArea[] = [...AREAS, 'clientside'];

test.each(SPECS)(
  'When the %s spec is read, then every operation has its example folder (or has no body to show) and every folder names an operation',
  (area) => {
    const operations = operationsOf(area);
    const { folders, webhooks } = exampleFoldersOf(area);
    const names = new Set(operations.map((o) => o.operationId));
    const withoutFolder = operations.filter((o) => !folders.includes(o.operationId) && !o.bodiless).map((o) => o.operationId);
    const strayFolders = folders.filter((f) => !names.has(f) && !webhooks.includes(f));
    expect({ withoutFolder, strayFolders }).toEqual({ withoutFolder: [], strayFolders: [] });
  },
);

test.each(SPECS)('When the %s spec is read, then every operation has at least one case to replay', (area) => {
  const replayed = new Set(exampleCases(area).map((c) => c.operation.operationId));
  const unreplayed = operationsOf(area)
    .map((o) => o.operationId)
    .filter((id) => !replayed.has(id));
  expect(unreplayed).toEqual([]);
});

describe('Contract: the spec examples against the Prism mock', () => {
  const mocks: ChildProcess[] = [];
  let target: Target;
  beforeAll(async () => {
    const ports = { checkout: await freePort(), management: await freePort() };
    for (const area of AREAS) {
      const child = spawn(process.execPath, prismArgs({ root: process.cwd(), area, port: ports[area] }), {
        stdio: 'ignore',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      mocks.push(child);
    }
    target = {
      baseUrl: { checkout: `http://127.0.0.1:${ports.checkout}`, management: `http://127.0.0.1:${ports.management}` },
      headers: { 'X-API-Key': COMPANY_KEY },
      preferExample: true,
    };
    // Any HTTP answer (Prism says 401 without credentials) means the mock is up.
    const up = (url: string) => waitFor(url, 60_000, () => true);
    await Promise.all([up(`${target.baseUrl.checkout}/sandbox/clock`), up(`${target.baseUrl.management}/me`)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(
      mocks.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))),
    );
  });

  test.each(named)('When %s is replayed, then the status and the body schema match', async (_name, c) => {
    const result = await replay(target, c);
    expect({ status: result.status, body: result.body }).toMatchObject({ status: c.status });
    expect(validators[c.area](c.schemaPointer, result.body)).toEqual([]);
  });
});
