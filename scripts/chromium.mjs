/**
 * Headless Chromium from the npm package @sparticuz/chromium, for the browser tests
 * (test/helpers/browser.ts) and `npm run bench:docs`: no system browser, no apt step, nothing
 * downloaded. The package ships the browser brotli-compressed; it is unpacked once per machine and
 * package version into the temporary folder (`chromiumDir()`), then reused.
 *
 * The package unpacks into os.tmpdir() and reuses whatever it finds there, so a second process
 * unpacking at the same time, or one killed half-way, would leave a torn binary behind. Here it
 * unpacks in a child process whose TMPDIR is a private folder, renamed into place when complete.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const PACKAGE = '@sparticuz/chromium';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/**
 * The package's flags that are left out. It is made for AWS Lambda: there Chromium must run in a
 * single process, with WebGL, and pages may do what a shopper's browser would refuse. Here the pages under test
 * get the browser's usual rules (same-origin, mixed content, site isolation), one browser holds
 * many pages and contexts, and its feature lists would replace Playwright's (which turn off
 * features that phone home): Chromium keeps only the last --disable-features / --enable-features.
 */
const LEFT_OUT = [
  '--single-process',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--disable-web-security',
  '--disable-features=',
  '--enable-features=',
  // Playwright chooses the headless mode itself.
  '--headless',
  // A GPU emulated in software (SwiftShader, inside the browser process): every frame is drawn
  // through it. With no GPU at all (`--disable-gpu`, below) Chromium composites in software
  // directly, which cost the browser tests a quarter less CPU (the same pages, screenshots and
  // accessibility checks).
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
  '--use-gl=',
  '--use-angle=',
  '--enable-unsafe-swiftshader',
];

/** The machine has no network: nothing in the background may try it (Playwright sets most of these too). */
const OFFLINE = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-pings',
  '--metrics-recording-only',
];

function packageVersion() {
  try {
    const entry = createRequire(import.meta.url).resolve(PACKAGE);
    // build/cjs/index.cjs → the package folder (its package.json is not exported).
    return JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')).version;
  } catch (error) {
    throw new Error(`the npm package ${PACKAGE} is not installed (${error.message}): run \`npm ci\`; it is a devDependency of this project`);
  }
}

/** Where the unpacked browser of the installed package version lives. */
export function chromiumDir() {
  return join(tmpdir(), `payments-chromium-${packageVersion()}`);
}

/** Unpacks the browser unless it already is; returns the executable. */
async function unpack() {
  const dir = chromiumDir();
  const executable = join(dir, 'chromium');
  if (existsSync(executable)) return executable;
  const staging = mkdtempSync(`${dir}.unpacking-`);
  try {
    await run(process.execPath, ['--input-type=module', '-e', `import('${PACKAGE}').then((m) => m.default.executablePath())`], {
      cwd: root,
      env: { ...process.env, TMPDIR: staging, NODE_OPTIONS: '' },
      timeout: 120_000,
    });
    if (!existsSync(join(staging, 'chromium'))) throw new Error(`${PACKAGE} left no chromium executable in ${staging}`);
    // For a machine without fontconfig settings of its own: the fonts the package ships.
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<fontconfig><dir>${dir}/fonts</dir><cachedir>${dir}/fonts-cache</cachedir></fontconfig>\n`,
    );
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process finished first: its copy is as good.
      if (!existsSync(executable)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return executable;
}

/** The options to give playwright-core's `chromium.launch()` (or `launchServer()`, to share one browser between processes). */
export async function chromiumLaunchOptions() {
  let executablePath;
  try {
    executablePath = await unpack();
  } catch (error) {
    throw new Error(
      `Headless Chromium could not be unpacked from the npm package ${PACKAGE} into ${chromiumDir()}: ${error.message}. ` +
        'Run `npm ci`, check that the temporary folder has some 300 MB free, and delete any half-unpacked folder beside it.',
    );
  }
  const { default: sparticuz } = await import(PACKAGE);
  const args = [...sparticuz.args.filter((arg) => !LEFT_OUT.some((flag) => arg.startsWith(flag))), ...OFFLINE, '--disable-gpu'];
  const dir = dirname(executablePath);
  const systemFonts = existsSync('/etc/fonts/fonts.conf');
  return {
    executablePath,
    args: [...new Set(args)],
    headless: true,
    ...(!systemFonts && { env: { ...process.env, FONTCONFIG_PATH: dir } }),
  };
}

/** Launches headless Chromium with any extra command-line flags; a failure says what failed and what to do. */
export async function launchChromium(extraArgs = []) {
  const launchOptions = await chromiumLaunchOptions();
  const options = { ...launchOptions, args: [...launchOptions.args, ...extraArgs] };
  try {
    return await chromium.launch(options);
  } catch (error) {
    // Playwright's message repeats the whole command line twice: the browser's own lines say more.
    const lines = String(error?.message ?? error)
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim().replace(/^- /, ''))
      .filter((line) => line && !line.includes('<launching>') && !/^(Browser logs|Call log):$/.test(line));
    const detail = [...new Set(lines)].slice(0, 12).join('\n  ');
    throw new Error(
      `Headless Chromium (${options.executablePath}, from the npm package ${PACKAGE} ${packageVersion()}) did not start:\n  ${detail}\n` +
        `To fix: run \`npm ci\`; delete ${dirname(options.executablePath)} so that it is unpacked again; ` +
        'a "cannot open shared object file" names a system library the browser needs (libnss3 and libnspr4 on Debian).',
    );
  }
}
