/**
 * The sandbox package (dist/sandbox-package/, written by the build): packed with `npm pack`, the
 * tarball is installed into an empty project without the registry (`npm install --offline`, the
 * lockfile pins its dependencies as this repository's lockfile does, so the tarballs come from the
 * npm cache), and used there as a team would: the command, startSandbox(), the Jest global setup
 * with the Adyen library and the webhook receiver, the Vitest global setup.
 *
 * On the PostgreSQL run the command and startSandbox() get a fresh database (--database-url); the
 * Jest and Vitest setups start the package's default, SQLite, on both runs. The Vitest run uses
 * this repository's Vitest (a development dependency).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { freshDatabase, TEST_ENGINE } from '../helpers/database.js';
import type * as SandboxPackage from '../../sandbox/src/index.js';
import type { SandboxInfo } from '../../sandbox/src/index.js';

const run = promisify(execFile);
const repo = process.cwd();
const packageDir = join(repo, 'dist', 'sandbox-package');
const NAME = '@payments-platform/sandbox';
// npm without the registry: no audit, no fund, no update check, cache only.
const npmEnv = {
  ...process.env,
  NODE_OPTIONS: '',
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
/**
 * The cases that use no engine of the run (types, help, the receiver, and the Jest and Vitest
 * setups, which start the package's default SQLite) run in the SQLite run only; the PostgreSQL run
 * keeps those that pass its database to the command and startSandbox().
 */
const onceForBothEngines = TEST_ENGINE === 'sqlite' ? test : test.skip;

/** This repository's Vitest (a development dependency, for this test). */
const vitestBin = join(repo, 'node_modules', 'vitest', 'vitest.mjs');

type LockEntry = Record<string, unknown> & {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/**
 * The lockfile entries of `names` and of everything they depend on, from this repository's
 * lockfile, where Node would find them (a nested copy before the top-level one), keys unchanged.
 */
function lockClosure(names: string[]): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const find = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (lock.packages[key]) return key;
      if (!base) return undefined;
    }
  };
  const out: Record<string, LockEntry> = {};
  const queue: Array<[from: string, name: string, optional: boolean]> = names.map((name) => ['', name, false]);
  while (queue.length > 0) {
    const [from, name, optional] = queue.shift()!;
    const key = find(from, name);
    if (!key) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${from || 'the package'}) is not in package-lock.json`);
    }
    if (out[key]) continue;
    // The consumer's lockfile says nothing of this repository's dev flags.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock.packages[key]!;
    out[key] = entry;
    for (const dependency of Object.keys(entry.dependencies ?? {})) queue.push([key, dependency, false]);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) queue.push([key, dependency, true]);
    for (const dependency of Object.keys(entry.peerDependencies ?? {}))
      queue.push([key, dependency, entry.peerDependenciesMeta?.[dependency]?.optional === true]);
  }
  return out;
}

const PAYMENT = {
  amount: { currency: 'EUR', value: 1000 },
  reference: 'sandbox-package',
  merchantAccount: 'DemoMerchantECOM',
  returnUrl: 'https://shop.example.com/return',
  paymentMethod: {
    type: 'scheme',
    encryptedCardNumber: 'test_4111111111111111',
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    encryptedSecurityCode: 'test_737',
  },
};

async function pay(checkoutUrl: string, apiKey: string): Promise<{ status: number; resultCode?: string; pspReference?: string }> {
  const response = await fetch(`${checkoutUrl}/payments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
    body: JSON.stringify(PAYMENT),
  });
  return { status: response.status, ...((await response.json()) as { resultCode?: string; pspReference?: string }) };
}

/** The test a team writes with the Adyen library: the block of docs/sandbox-package.md, run with the package's Jest or Vitest global setup. */
function adyenTest(runner: 'jest' | 'vitest'): string {
  const page = readFileSync(join(repo, 'docs', 'sandbox-package.md'), 'utf8');
  const block = /<!-- pay\.test\.mjs: [^>]*-->\n```mjs\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/sandbox-package.md has no pay.test.mjs block');
  return `${runner === 'vitest' ? "import { expect, test } from 'vitest';\n" : ''}${block}`;
}

describe('The sandbox package', () => {
  let dir: string;
  let consumer: string;
  let files: string[];
  let api: typeof SandboxPackage;
  const databaseUrl = async () => (TEST_ENGINE === 'postgres' ? (await freshDatabase()).env.DATABASE_URL : undefined);

  beforeAll(async () => {
    if (!existsSync(join(packageDir, 'package.json'))) throw new Error(`${packageDir} is missing: npm run build writes it`);
    dir = mkdtempSync(join(tmpdir(), 'sandbox-package-'));
    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: packageDir, env: npmEnv });
    const [pack] = JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = pack!.files.map((f) => f.path).sort();

    consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    const dependency = `file:../${pack!.filename}`;
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const project = { name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: { [NAME]: dependency } };
    writeFileSync(join(consumer, 'package.json'), JSON.stringify(project, null, 2));
    writeFileSync(
      join(consumer, 'package-lock.json'),
      JSON.stringify(
        {
          name: 'consumer',
          version: '1.0.0',
          lockfileVersion: 3,
          requires: true,
          packages: { '': { name: 'consumer', version: '1.0.0', dependencies: { [NAME]: dependency } }, ...lockClosure(Object.keys(manifest.dependencies)) },
        },
        null,
        2,
      ),
    );
    await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: consumer, env: npmEnv });
    // What better-sqlite3's install script (skipped offline) fetches or compiles: its addon, built for this Node.
    const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    mkdirSync(join(consumer, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
    copyFileSync(join(repo, addon), join(consumer, addon));
    // The Adyen library as a project has it, linked from this repository's dev dependencies.
    mkdirSync(join(consumer, 'node_modules', '@adyen'), { recursive: true });
    symlinkSync(join(repo, 'node_modules', '@adyen', 'api-library'), join(consumer, 'node_modules', '@adyen', 'api-library'), 'dir');
    api = (await import(pathToFileURL(join(consumer, 'node_modules', NAME, 'index.mjs')).href)) as typeof SandboxPackage;
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('When it is packed, then the tarball holds the command, the bundle and what it reads at run time, and no test, fixture, source or map', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'bin/payments-sandbox.mjs',
        'server.mjs',
        'index.mjs',
        'jest-global-setup.mjs',
        'jest-global-teardown.mjs',
        'vitest-global-setup.mjs',
        'generated/checkout.json',
        'generated/management.json',
        'types/sandbox/src/index.d.ts',
        'server/store/migrations/sqlite/0001_init.sql',
        'server/store/migrations/postgres/0001_schema.sql',
      ]),
    );
    expect(
      files.filter((f) => /(^|\/)(test|tests|fixtures?|__tests__)\/|\.test\.|\.map$|(?<!\.d)\.ts$|tsconfig|\.tsbuildinfo$|^node_modules\//.test(f)),
    ).toEqual([]);
    // Every dependency is one the bundle leaves outside, at this repository's locked version.
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const { dependencies } = JSON.parse(readFileSync(join(consumer, 'node_modules', NAME, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(dependencies)).toEqual(expect.arrayContaining(['better-sqlite3', 'pg', 'pino']));
    for (const [name, version] of Object.entries(dependencies))
      expect({ name, version }).toEqual({ name, version: lock.packages[`node_modules/${name}`]!.version });
  });

  onceForBothEngines(
    'When a TypeScript project uses the installed package, then its types check, and a wrong use does not compile',
    async () => {
      const project = join(consumer, 'typed');
      mkdirSync(project);
      writeFileSync(
        join(project, 'main.ts'),
        `import { adyenHttpClient, receiveWebhooks, startSandbox, type Sandbox, type WebhookReceiver } from '${NAME}';

export async function use(): Promise<string> {
  const sandbox: Sandbox = await startSandbox({ port: 0, logLevel: 'warn' });
  const webhooks: WebhookReceiver = await receiveWebhooks({ register: { managementUrl: sandbox.managementUrl, apiKey: sandbox.companyKey, merchantAccount: sandbox.merchantAccount } });
  const found = await webhooks.waitFor((item) => item.eventCode === 'CAPTURE', { timeoutMs: 1000 });
  const clock: { now: string; offsetSeconds: number } = await sandbox.advanceClock(60);
  adyenHttpClient(sandbox);
  // @ts-expect-error: the port is a number
  await startSandbox({ port: '0' });
  return \`\${found.item.pspReference} \${clock.now} \${sandbox.checkoutUrl}\`;
}
`,
      );
      const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
      const options = ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--lib', 'ES2023,DOM'];
      const typeRoots = ['--types', 'node', '--typeRoots', join(repo, 'node_modules', '@types')];
      const result = await run(process.execPath, [tsc, ...options, ...typeRoots, join(project, 'main.ts')], {
        cwd: project,
        env: { ...process.env, NODE_OPTIONS: '' },
      }).then(
        () => 'ok',
        (error: { stdout?: string; message: string }) => error.stdout ?? error.message,
      );
      expect(result).toBe('ok');
    },
    60_000,
  );

  test('When the command runs with --json --port 0, then it prints one JSON line, a plain HTTP payment is authorised, and SIGTERM stops it and removes its data', async () => {
    const url = await databaseUrl();
    const bin = join(consumer, 'node_modules', '.bin', 'payments-sandbox');
    const child = spawn(bin, ['--json', '--port', '0', ...(url ? ['--database-url', url] : [])], { cwd: consumer, env: { ...process.env, NODE_OPTIONS: '' } });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('\n')) resolve();
        });
        void exited.then((code) => reject(new Error(`the command exited with ${code}: ${stderr}`)));
      });
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const info = JSON.parse(lines[0]!) as SandboxInfo;
      expect(info).toMatchObject({
        checkoutUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/v71$/),
        managementUrl: `${info.baseUrl}/management/v3`,
        merchantAccount: 'DemoMerchantECOM',
        merchantAccounts: ['DemoMerchantECOM', 'DemoMerchantPOS'],
        temporaryDataDir: true,
      });
      expect(info.port).toBeGreaterThan(0);
      expect(existsSync(info.dataDir)).toBe(true);

      expect(await pay(info.checkoutUrl, info.companyKey)).toMatchObject({ status: 200, resultCode: 'Authorised' });
      expect(await pay(info.checkoutUrl, info.merchantKey)).toMatchObject({ status: 200, resultCode: 'Authorised' });
      expect((await pay(info.checkoutUrl, 'not-a-key-of-this-sandbox-0000')).status).toBe(401);

      // The console and the API reference work from the package alone (their browser files are in it).
      expect(info.consoleUrl).toBe(`${info.baseUrl}/console`);
      const consolePage = await fetch(info.consoleUrl);
      expect(consolePage.status).toBe(200);
      const consoleScript = /src="(\/console\/assets\/[^"]+)"/.exec(await consolePage.text())?.[1];
      expect(consoleScript).toBeDefined();
      const consoleAsset = await fetch(`${info.baseUrl}${consoleScript!}`);
      expect(consoleAsset.status).toBe(200);
      // Read to the end: a body left unread keeps its connection busy, and SIGTERM waits for it.
      await consoleAsset.arrayBuffer();
      // The API reference works from the package alone (Scalar's browser build is carried in it).
      const reference = await fetch(`${info.baseUrl}/docs/checkout`);
      expect(reference.status).toBe(200);
      const script = /href="(\/docs\/assets\/[^"]+\/standalone\.js)"/.exec(await reference.text())?.[1];
      expect(script).toBeDefined();
      const scalar = await fetch(`${info.baseUrl}${script!}`);
      expect(scalar.status).toBe(200);
      await scalar.arrayBuffer();

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(info.dataDir)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  onceForBothEngines('When --help or --version is asked for, then it answers without starting a sandbox', async () => {
    const bin = join(consumer, 'node_modules', '.bin', 'payments-sandbox');
    const help = await run(bin, ['--help'], { env: { ...process.env, NODE_OPTIONS: '' } });
    expect(help.stdout).toEqual(expect.stringContaining('--database-url'));
    const version = await run(bin, ['--version'], { env: { ...process.env, NODE_OPTIONS: '' } });
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version);
    await expect(run(bin, ['--no-such-option'], { env: { ...process.env, NODE_OPTIONS: '' } })).rejects.toMatchObject({ code: 2 });
  });

  test('When three sandboxes run at once, then each has its own port, data and keys, a payment in one is unknown to the others, and a clock moves alone', async () => {
    const sandboxes = await Promise.all(
      [0, 1, 2].map(async () => {
        const url = await databaseUrl();
        return api.startSandbox(url ? { databaseUrl: url } : {});
      }),
    );
    try {
      expect(new Set(sandboxes.map((s) => s.port)).size).toBe(3);
      expect(new Set(sandboxes.map((s) => s.dataDir)).size).toBe(3);
      expect(new Set(sandboxes.map((s) => s.companyKey)).size).toBe(3);
      const [a, b, c] = sandboxes as [SandboxPackage.Sandbox, SandboxPackage.Sandbox, SandboxPackage.Sandbox];

      const payment = await pay(a.checkoutUrl, a.companyKey);
      expect(payment.resultCode).toBe('Authorised');
      const captureIn = (sandbox: SandboxPackage.Sandbox) =>
        fetch(`${sandbox.checkoutUrl}/payments/${payment.pspReference}/captures`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': sandbox.companyKey },
          body: JSON.stringify({ merchantAccount: 'DemoMerchantECOM', amount: PAYMENT.amount }),
        }).then((r) => r.status);
      expect(await Promise.all([captureIn(b), captureIn(c)])).toEqual([422, 422]);
      expect(await captureIn(a)).toBe(201);
      // A key of one sandbox opens no other.
      expect((await pay(b.checkoutUrl, a.companyKey)).status).toBe(401);

      const clock = await a.advanceClock(86_400);
      expect(clock.offsetSeconds).toBe(86_400);
      const offsetOf = async (sandbox: SandboxPackage.Sandbox) =>
        ((await (await fetch(`${sandbox.checkoutUrl}/sandbox/clock`, { headers: { 'X-API-Key': sandbox.companyKey } })).json()) as { offsetSeconds: number })
          .offsetSeconds;
      expect(await Promise.all(sandboxes.map(offsetOf))).toEqual([86_400, 0, 0]);
    } finally {
      await Promise.all(sandboxes.map((s) => s.stop()));
    }
    for (const sandbox of sandboxes) expect(existsSync(sandbox.dataDir)).toBe(false);
  }, 90_000);

  onceForBothEngines(
    'When a webhook arrives with a wrong signature, then the receiver refuses it with 401 and waitFor does not take it; a signed one is accepted',
    async () => {
      const key = '44782def547aaa06c910c43932b1eb0c71fc68d9d0c057550c48ec2acf6ba056';
      const receiver = await api.receiveWebhooks({ hmacKey: key });
      try {
        const item = {
          pspReference: 'ABCDEFGHIJKLMNOP',
          merchantAccountCode: 'DemoMerchantECOM',
          merchantReference: 'order-1',
          amount: { currency: 'EUR', value: 1000 },
          eventCode: 'CAPTURE',
          success: 'true',
        };
        const send = (signed: typeof item & { additionalData: { hmacSignature: string } }) =>
          fetch(receiver.url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: signed }] }),
          }).then(async (r) => ({ status: r.status, body: await r.text() }));
        const waiting = receiver.waitFor((i) => i.eventCode === 'CAPTURE', { timeoutMs: 10_000 });
        const forged = await send({ ...item, additionalData: { hmacSignature: api.signItem('00'.repeat(32), item) } });
        expect(forged.status).toBe(401);
        expect(receiver.rejected.map((w) => w.verified)).toEqual([false]);
        expect(receiver.received).toEqual([]);
        expect(await send({ ...item, additionalData: { hmacSignature: api.signItem(key, item) } })).toEqual({ status: 200, body: '[accepted]' });
        expect(await waiting).toMatchObject({ verified: true, item: { pspReference: 'ABCDEFGHIJKLMNOP' } });
      } finally {
        await receiver.close();
      }
    },
  );

  onceForBothEngines(
    "When a project's Jest run uses the package's global setup, then its workers have the sandbox, and the documented test pays and captures with the Adyen library and receives the signed CAPTURE webhook",
    async () => {
      const project = join(consumer, 'jest-project');
      mkdirSync(project);
      writeFileSync(
        join(project, 'jest.config.json'),
        JSON.stringify({
          rootDir: consumer,
          roots: [project],
          testEnvironment: 'node',
          testMatch: ['**/*.test.mjs'],
          transform: {},
          globalSetup: `${NAME}/jest/global-setup`,
          globalTeardown: `${NAME}/jest/global-teardown`,
          // No remembered durations: with two files and two workers Jest runs them in workers, not in its own process.
          cacheDirectory: join(project, '.jest-cache'),
        }),
      );
      writeFileSync(join(project, 'pay.test.mjs'), adyenTest('jest'));
      writeFileSync(
        join(project, 'worker.test.mjs'),
        `import { writeFileSync } from 'node:fs';

test('When a test file runs in a Jest worker, then the variables of the global setup are there and its key opens the sandbox', async () => {
  writeFileSync(new URL('./worker.pid', import.meta.url), String(process.pid));
  const response = await fetch(\`\${process.env.SANDBOX_MANAGEMENT_URL}/me\`, { headers: { 'X-API-Key': process.env.SANDBOX_COMPANY_KEY } });
  expect(response.status).toBe(200);
});
`,
      );
      const jest = join(repo, 'node_modules', 'jest', 'bin', 'jest.js');
      const running = run(process.execPath, [jest, '--ci', '--maxWorkers=2', '--config', join(project, 'jest.config.json')], {
        cwd: consumer,
        env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' },
      });
      const jestPid = running.child.pid;
      const { stderr } = await running.catch((error: { stderr?: string; stdout?: string; message: string }) => ({
        stderr: `${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`,
      }));
      // The file ran in a worker, not in the process that ran the global setup.
      expect(Number(readFileSync(join(project, 'worker.pid'), 'utf8'))).not.toBe(jestPid);
      expect(stderr).toEqual(expect.stringContaining('Tests:       2 passed, 2 total'));
    },
    90_000,
  );

  onceForBothEngines(
    "When a project's Vitest run uses the package's global setup, then the same test passes there",
    async () => {
      const project = join(consumer, 'vitest-project');
      mkdirSync(project);
      writeFileSync(
        join(project, 'vitest.config.mjs'),
        `export default { test: { include: ['**/*.test.mjs'], globalSetup: ['${NAME}/vitest/global-setup'], testTimeout: 30000 } };\n`,
      );
      writeFileSync(join(project, 'pay.test.mjs'), adyenTest('vitest'));
      const { stdout } = await run(process.execPath, [vitestBin, 'run', '--root', project], {
        cwd: consumer,
        // Plain text: Jest's workers pass FORCE_COLOR on.
        env: { ...process.env, NODE_OPTIONS: '', CI: '1', NO_COLOR: '1', FORCE_COLOR: undefined },
      }).catch((error: { stderr?: string; stdout?: string; message: string }) => ({ stdout: `${error.stdout ?? ''}${error.stderr ?? ''}${error.message}` }));
      expect(stdout).toMatch(/Tests\s+1 passed \(1\)/);
    },
    90_000,
  );
});
