/**
 * The installable client (client/package.json): packed with `npm pack` (which builds it), the
 * tarball is installed into a temporary project without the registry (`npm install --offline`,
 * the lockfile pins openapi-fetch as this repository's lockfile does, so the tarballs come from
 * the npm cache), a TypeScript use of it is type-checked with this repository's tsc, and a child
 * node process pays with it against the server and verifies a webhook signature.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

const run = promisify(execFile);
const repo = process.cwd();
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
// npm without the registry: no audit, no fund, no update check, cache only.
const npmEnv = {
  ...process.env,
  NODE_OPTIONS: '',
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

type LockEntry = { version: string; integrity?: string; resolved?: string; license?: string; dependencies?: Record<string, string> };

/** The lockfile entries of `names` and everything they depend on, from this repository's lockfile. */
function lockClosure(names: string[]): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const out: Record<string, LockEntry> = {};
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.shift()!;
    const key = `node_modules/${name}`;
    if (out[key]) continue;
    const entry = lock.packages[key];
    if (!entry) throw new Error(`${name} is not in package-lock.json`);
    const { version, integrity, resolved, license, dependencies } = entry;
    out[key] = { version, ...(integrity && { integrity }), ...(resolved && { resolved }), ...(license && { license }), ...(dependencies && { dependencies }) };
    queue.push(...Object.keys(dependencies ?? {}));
  }
  return out;
}

const CONSUMER = `import { createCheckoutClient, signItem, verifyHmacSignature, type NotificationRequestItem } from '@payments-platform/client';
import { hmacBase64 } from '@payments-platform/client/webhooks';

const checkout = createCheckoutClient({ baseUrl: process.env.CHECKOUT_URL!, apiKey: process.env.API_KEY! });
const { data, error, response } = await checkout.POST('/payments', {
  body: {
    amount: { currency: 'EUR', value: 1000 },
    reference: 'packed-client',
    merchantAccount: 'DemoMerchantECOM',
    returnUrl: 'https://shop.example.com/return',
    paymentMethod: { type: 'scheme', encryptedCardNumber: 'test_4111111111111111', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030', encryptedSecurityCode: 'test_737' },
  },
});
const resultCode: string | undefined = data?.resultCode;

// The types are the spec's, not any: a string amount does not compile.
export async function wrong() {
  // @ts-expect-error: amount.value is a number
  await checkout.POST('/payments/{paymentPspReference}/captures', { params: { path: { paymentPspReference: 'x' } }, body: { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: '1000' } } });
}

const key = '44782def547aaa06c910c43932b1eb0c71fc68d9d0c057550c48ec2acf6ba056';
const item: NotificationRequestItem = {
  pspReference: data?.pspReference ?? '',
  merchantAccountCode: 'DemoMerchantECOM',
  merchantReference: 'packed-client',
  amount: { currency: 'EUR', value: 1000 },
  eventCode: 'AUTHORISATION',
  success: 'true',
};
item.additionalData = { hmacSignature: signItem(key, item) };
console.log(JSON.stringify({
  status: response.status,
  resultCode,
  pspReference: data?.pspReference,
  error: error ?? null,
  verified: verifyHmacSignature(key, item),
  tampered: verifyHmacSignature(key, { ...item, success: 'false' }),
  hmacLength: hmacBase64(key, 'x').length,
}));
`;

describe('The client package', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-package-'));
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('When it is packed, installed offline into a project and type-checked, then a payment and a webhook check work with it', async () => {
    // A copy of the sources (the client imports ../generated and shared code) with this repository's node_modules, so that packing writes nothing into the work tree.
    const work = join(dir, 'repo');
    const skipped = new Set(
      ['node_modules', '.git', 'dist', 'data', '.tmp', 'coverage', join('bench', 'results'), join('client', 'dist')].map((p) => join(repo, p)),
    );
    cpSync(repo, work, { recursive: true, filter: (source) => !skipped.has(source) });
    symlinkSync(join(repo, 'node_modules'), join(work, 'node_modules'), 'dir');

    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: join(work, 'client'), env: npmEnv });
    const [pack] = JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string; name: string; files: Array<{ path: string }> }>;
    expect(pack!.name).toBe('@payments-platform/client');
    const files = pack!.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/client/index.js',
        'dist/client/index.d.ts',
        'dist/client/webhooks.js',
        'dist/client/webhooks.d.ts',
        'dist/generated/checkout.d.ts',
        'dist/generated/management.d.ts',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);

    const consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    const dependency = `file:../${pack!.filename}`;
    const manifest = JSON.parse(readFileSync(join(repo, 'client', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: { '@payments-platform/client': dependency } }, null, 2),
    );
    writeFileSync(
      join(consumer, 'package-lock.json'),
      JSON.stringify(
        {
          name: 'consumer',
          version: '1.0.0',
          lockfileVersion: 3,
          requires: true,
          packages: {
            '': { name: 'consumer', version: '1.0.0', dependencies: { '@payments-platform/client': dependency } },
            ...lockClosure(Object.keys(manifest.dependencies)),
          },
        },
        null,
        2,
      ),
    );
    await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: consumer, env: npmEnv });

    writeFileSync(join(consumer, 'main.ts'), CONSUMER);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
          strict: true,
          skipLibCheck: false,
          outDir: 'out',
          rootDir: '.',
        },
        include: ['main.ts'],
      }),
    );
    const typecheck = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer, env: { ...process.env, NODE_OPTIONS: '' } }).catch(
      (error: { stdout?: string; message: string }) => ({
        stdout: error.stdout ?? error.message,
        failed: true,
      }),
    );
    expect({ typecheck: 'failed' in typecheck ? typecheck.stdout : 'ok' }).toEqual({ typecheck: 'ok' });

    const { stdout } = await run(process.execPath, [join(consumer, 'out', 'main.js')], {
      cwd: consumer,
      env: { ...process.env, NODE_OPTIONS: '', CHECKOUT_URL: server.checkoutUrl, API_KEY: COMPANY_KEY },
    });
    expect(JSON.parse(stdout.trim())).toEqual({
      status: 200,
      resultCode: 'Authorised',
      pspReference: expect.stringMatching(/^[A-Z0-9]{16}$/),
      error: null,
      verified: true,
      tampered: false,
      hmacLength: 44,
    });
  }, 120_000);
});
