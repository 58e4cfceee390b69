import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMPANY_KEY } from '../helpers/keys.js';
import { prismArgs } from '../../scripts/prism.mjs';
import { freePort, waitFor } from '../helpers/spawn-server.js';
import { startServer, type TestServer } from '../helpers/start-server.js';
import { ARRANGE, closeArranged } from './arrange.js';
import { type Area, exampleCases, loadBundled, replay, responseValidator, type Target } from './suite.js';

const AREAS: Area[] = ['checkout', 'management'];
const cases = AREAS.flatMap((area) => exampleCases(area));
const validators = Object.fromEntries(AREAS.map((area) => [area, responseValidator(area)])) as Record<Area, ReturnType<typeof responseValidator>>;
const named = cases.map((c) => [`${c.operation.operationId} ${c.scenario} → ${c.status}`, c] as const);

/** Every operationId of a bundled spec's paths, with whether it has anything an example could show. */
function operationsOf(area: Area): Array<{ operationId: string; bodiless: boolean }> {
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
function exampleFoldersOf(area: Area): { folders: string[]; webhooks: string[] } {
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

test.each(AREAS)(
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

test.each(AREAS)('When the %s spec is read, then every operation has at least one case to replay', (area) => {
  const replayed = new Set(cases.filter((c) => c.area === area).map((c) => c.operation.operationId));
  const unreplayed = operationsOf(area)
    .map((o) => o.operationId)
    .filter((id) => !replayed.has(id));
  expect(unreplayed).toEqual([]);
});

/**
 * Against a deployment: CONTRACT_CHECKOUT_URL, CONTRACT_MANAGEMENT_URL and CONTRACT_API_KEY
 * (a credential with every role of the demo company's data set).
 */
const deployed = process.env.CONTRACT_CHECKOUT_URL && process.env.CONTRACT_MANAGEMENT_URL && process.env.CONTRACT_API_KEY;
(deployed ? describe : describe.skip)('Contract: the spec examples against a deployment', () => {
  const target: Target = {
    baseUrl: { checkout: process.env.CONTRACT_CHECKOUT_URL ?? '', management: process.env.CONTRACT_MANAGEMENT_URL ?? '' },
    headers: { 'X-API-Key': process.env.CONTRACT_API_KEY ?? '' },
    preferExample: false,
  };
  // The loopback receiver of the webhook and forward arrangements: left open, the run never exits.
  afterAll(() => closeArranged());
  test.each(named)('When %s is replayed, then the status and the body schema match', async (_name, c) => {
    const arranged = ARRANGE[c.operation.operationId] ? await ARRANGE[c.operation.operationId]!(target, c) : {};
    const result = await replay(target, c, arranged);
    expect(result.status).toBe(c.status);
    expect(validators[c.area](c.schemaPointer, result.body)).toEqual([]);
  });
});

describe('Contract: the spec examples against the server', () => {
  let server: TestServer;
  let target: Target;
  beforeAll(async () => {
    server = await startServer();
    target = { baseUrl: { checkout: server.checkoutUrl, management: server.managementUrl }, headers: { 'X-API-Key': COMPANY_KEY }, preferExample: false };
  });
  afterAll(async () => {
    await closeArranged();
    await server.stop();
  });

  test.each(named)('When %s is replayed, then the status and the body schema match', async (_name, c) => {
    const arranged = ARRANGE[c.operation.operationId] ? await ARRANGE[c.operation.operationId]!(target, c) : {};
    const result = await replay(target, c, arranged);
    expect({ status: result.status, body: result.body }).toMatchObject({ status: c.status });
    expect(validators[c.area](c.schemaPointer, result.body)).toEqual([]);
  });
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
