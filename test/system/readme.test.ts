/**
 * The README and the docs/ pages are true: every `sh` and `ts` block of README.md and of docs/*.md
 * is either quoted, byte for byte, from a file under examples/ (and that file runs), or a command
 * this test runs. They run against the built server (`npm start` is `npm run build && node
 * dist/server.mjs`; jest's global setup has built dist/) on a fresh data directory, then again on
 * the existing one. Every page under docs/ is linked from the README, and every relative link of
 * these pages leads to a file.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { engineEnv, kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const run = promisify(execFile);
const root = process.cwd();
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/**
 * Pages written apart from this test, with a test of their own that runs their snippets: the README
 * links them, and they may not exist yet in a checkout that has the link.
 */
const WRITTEN_APART = ['docs/local-webhook-receiver.md'];

/** README.md and the docs/ pages whose snippets this test runs, each as [path, text]. */
function pages(): [string, string][] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((path) => !WRITTEN_APART.includes(path));
  return ['README.md', ...docs].map((path) => [path, readFileSync(join(root, path), 'utf8')]);
}

interface Block {
  lang: string;
  content: string;
  /** The examples/ file the README says this block quotes. */
  quotes: string | undefined;
}

/** The fenced blocks of the pages, each with the file it quotes (an HTML comment `quoted from examples/…` on the line before). */
function blocks(): Block[] {
  const found: Block[] = [];
  const fence = /(?:<!-- quoted from (examples\/[^\s]+)[^\n]*-->\n)?```(\w*)\n([\s\S]*?)```/g;
  for (const [, text] of pages()) for (const match of text.matchAll(fence)) found.push({ quotes: match[1], lang: match[2]!, content: match[3]! });
  return found;
}

/** The relative links of a page (`[text](target)`, without an #anchor), as paths from the repository root. */
function relativeLinks(path: string, text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => normalize(join(dirname(path), target)));
}

const runnable = () => blocks().filter((block) => ['sh', 'bash', 'shell', 'ts', 'js'].includes(block.lang));

/** The commands of the README's unquoted shell blocks, one per line, without comments. */
function commands(): string[] {
  return runnable()
    .filter((block) => !block.quotes)
    .flatMap((block) => block.content.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/** `A=1 B=2 npm start` → its variables; undefined when the line is not a start command. */
function startCommand(line: string): Record<string, string> | undefined {
  const match = /^((?:[A-Z_]+=\S+\s+)*)npm start$/.exec(line.replace(/^npm ci && /, ''));
  if (!match) return undefined;
  return Object.fromEntries(
    match[1]!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
}

const TYPED_CLIENT_COMMAND = 'npx tsc -p examples && node .tmp/examples/examples/typed-client.js';
const DROPIN_EXAMPLE_COMMAND = 'npm run example:dropin';

const dirs: string[] = [];
const running: RunningProcess[] = [];
/** The Drop-in example's process groups (npm, its shell and node). */
const examples: ChildProcess[] = [];
afterEach(async () => {
  for (const process of running.splice(0)) await kill(process);
  for (const example of examples.splice(0)) {
    if (example.exitCode !== null || example.signalCode !== null) continue;
    const exited = new Promise((resolve) => example.once('exit', resolve));
    process.kill(-example.pid!, 'SIGTERM');
    await exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'readme-'));
  dirs.push(dir);
  return join(dir, 'data', 'payments.sqlite');
}

/** Starts the built server the way `npm start` does (without the build, done once by jest's global setup). */
async function start(databasePath: string, env: Record<string, string>): Promise<RunningProcess> {
  const server = await spawnServer({ ...env, DATABASE_PATH: databasePath });
  running.push(server);
  return server;
}

async function stop(server: RunningProcess): Promise<void> {
  running.splice(running.indexOf(server), 1);
  await kill(server, 'SIGTERM');
}

/** Runs examples/pay-with-curl.sh against the server; its exit code and output. */
async function curlExample(baseUrl: string, apiKey?: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('sh', ['examples/pay-with-curl.sh'], {
      cwd: root,
      env: { ...process.env, BASE_URL: baseUrl, ...(apiKey && { API_KEY: apiKey }) },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

async function typedClientExample(baseUrl: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', TYPED_CLIENT_COMMAND], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', BASE_URL: baseUrl } });
  return stdout;
}

describe('README', () => {
  test('When the README and the docs pages are read, then every docs page is linked from the README and every relative link leads to a file', () => {
    const linkedFromReadme = relativeLinks('README.md', readme);
    const docs = readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`);
    expect(docs.filter((page) => !linkedFromReadme.includes(page))).toEqual([]);
    const broken = pages().flatMap(([path, text]) =>
      relativeLinks(path, text)
        .filter((target) => !existsSync(join(root, target)) && !WRITTEN_APART.includes(target))
        .map((target) => `${path} → ${target}`),
    );
    expect(broken).toEqual([]);
    // The two commands a newcomer runs on a fresh machine open the README.
    const opening = readme.split('\n').slice(0, 40);
    expect(opening.filter((line) => /^npm ci && npm (start|test)\b/.test(line)).map((line) => line.split('#')[0]!.trim())).toEqual([
      'npm ci && npm start',
      'npm ci && npm test',
    ]);
  });

  test('Every sh and ts block is quoted from examples/ (byte for byte) or a command this test runs', () => {
    const quoted = runnable().filter((block) => block.quotes);
    expect(quoted.map((block) => block.quotes).sort()).toEqual(['examples/pay-with-curl.sh', 'examples/typed-client.ts']);
    for (const block of quoted) expect([block.quotes, block.content]).toEqual([block.quotes, readFileSync(join(root, block.quotes!), 'utf8')]);

    const covered = (line: string) =>
      startCommand(line) !== undefined || line === 'npm ci && npm test' || line === TYPED_CLIENT_COMMAND || line === DROPIN_EXAMPLE_COMMAND;
    expect(commands().filter((line) => !covered(line))).toEqual([]);
    // `npm start` is the build (done by jest's global setup) and the server this test spawns; `npm ci && npm test` is what CI runs.
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/^npm run build && (exec )?node dist\/server\.mjs$/);
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
    // Everything CI needs, the browser included, comes from npm.
    expect(ci).not.toMatch(/apt-get|apt /);
  });

  test('When the README start command runs on a fresh data directory and again on the existing one, then the curl and typed-client examples pay each time', async () => {
    const env = commands()
      .map(startCommand)
      .find((vars) => vars?.DEMO_COMPANY_API_KEY);
    expect(env).toEqual({ DEMO_COMPANY_API_KEY: 'my-local-company-key-123' });
    const databasePath = freshDataDir();
    for (const round of ['fresh', 'existing']) {
      const server = await start(databasePath, env!);
      const curl = await curlExample(server.baseUrl);
      expect([round, curl.code]).toEqual([round, 0]);
      expect(JSON.parse(curl.out)).toMatchObject({ resultCode: 'Authorised', merchantReference: 'order-1' });
      const typed = await typedClientExample(server.baseUrl);
      expect(typed).toMatch(/^payment \w+: Authorised\ncapture \w+: received\n$/);
      await stop(server);
    }
  }, 120_000);

  test('When the Drop-in example runs against the README start command, then it prints its address and its backend gives the page a client key, a session and the methods', async () => {
    const server = await start(freshDataDir(), { DEMO_COMPANY_API_KEY: 'my-local-company-key-123' });
    // The README's command with its defaults but the sandbox's address and a free port (the browser test pays with it).
    const example = spawn('sh', ['-c', DROPIN_EXAMPLE_COMMAND], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', BASE_URL: server.baseUrl, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    examples.push(example);
    let output = '';
    const address = await new Promise<string>((resolve, reject) => {
      example.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const printed = /Shop on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (printed) resolve(printed[1]!);
      });
      example.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${output}`)));
    });

    const sessions = (await (await fetch(`${address}/api/config?flow=sessions`)).json()) as { clientKey: string; api: string; session: Record<string, string> };
    expect(sessions.clientKey).toMatch(/^test_/);
    expect(sessions.api).toBe(`${server.baseUrl}/checkoutshopper/test/`);
    expect(Object.keys(sessions.session).sort()).toEqual(['id', 'sessionData']);
    const advanced = (await (await fetch(`${address}/api/config?flow=advanced`)).json()) as { paymentMethodsResponse: { paymentMethods: { type: string }[] } };
    expect(advanced.paymentMethodsResponse.paymentMethods.map((method) => method.type)).toEqual(expect.arrayContaining(['scheme', 'ideal']));
    expect(await (await fetch(`${address}/?flow=advanced`)).text()).toContain('<script src="/shop.js"');
  }, 60_000);

  test('When the first start had no demo keys and the second has DEMO_COMPANY_API_KEY, then the curl example works and the generated key still works', async () => {
    const databasePath = freshDataDir();
    const first = await start(databasePath, {});
    expect((await curlExample(first.baseUrl)).code).not.toBe(0);
    // The start banner shows the generated key once (it may reach the pipe just after /health answers).
    const bannerKey = () => /ws@Company\.DemoCompany[^:\n]*:\s*(\S{20,})/.exec(first.output())?.[1];
    for (let i = 0; i < 40 && !bannerKey(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const generated = bannerKey();
    await stop(first);

    const second = await start(databasePath, { DEMO_COMPANY_API_KEY: 'my-local-company-key-123' });
    const curl = await curlExample(second.baseUrl);
    expect(curl.code).toBe(0);
    expect(JSON.parse(curl.out)).toMatchObject({ resultCode: 'Authorised' });
    expect(generated).toBeDefined();
    expect((await curlExample(second.baseUrl, generated)).code).toBe(0);
    await stop(second);

    // A third start with the key given again changes nothing and still works.
    const third = await start(databasePath, { DEMO_COMPANY_API_KEY: 'my-local-company-key-123' });
    expect((await curlExample(third.baseUrl)).code).toBe(0);
  }, 120_000);

  test('When DEMO_MERCHANT_API_KEY repeats the company key on an existing database, then the server refuses to start and names the variable', async () => {
    const databasePath = freshDataDir();
    await stop(await start(databasePath, { DEMO_COMPANY_API_KEY: 'my-local-company-key-123' }));
    const refused = await run(process.execPath, [join(root, 'dist', 'server.mjs')], {
      env: await engineEnv({ ...process.env, NODE_OPTIONS: '', PORT: '0', DATABASE_PATH: databasePath, DEMO_MERCHANT_API_KEY: 'my-local-company-key-123' }),
      timeout: 15_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('DEMO_MERCHANT_API_KEY is already the API key of credential S2-DEMOCOMPANY01');
  }, 60_000);
});
