/**
 * `npm run build` (scripts/build.mjs) in a copy of the project's sources: it leaves dist/ as it is
 * while every input reads the same (what `npm start` relies on to start at once, and two starts
 * on not rewriting each other's files), and builds again, without what a deleted source compiled
 * to, as soon as one changes.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = process.cwd();
const COPIED = ['server', 'client', 'lib', 'console', 'sandbox', 'generated', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'];
let copy: string;

const build = (...args: string[]) =>
  promisify(execFile)(process.execPath, [join(copy, 'scripts', 'build.mjs'), ...args], { cwd: copy, env: { ...process.env, NODE_OPTIONS: '' } });
const mtime = (file: string) => statSync(join(copy, file)).mtimeMs;
const OUTPUTS = ['dist/server.mjs', 'dist/server/app.js', 'dist/console/main.js', 'dist/sandbox-package/package.json'];

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'build-'));
  for (const entry of COPIED) cpSync(join(root, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  await build();
}, 60_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run build', () => {
  test('When nothing changed since the last build, then it writes nothing; with --force it builds again', async () => {
    const before = OUTPUTS.map(mtime);
    await build();
    expect(OUTPUTS.map(mtime)).toEqual(before);
    await build('--force');
    expect(OUTPUTS.map(mtime).every((after, i) => after > before[i]!)).toBe(true);
  }, 60_000);

  test('When a source changes, is added or is removed, then the next build has it, and nothing of the removed one', async () => {
    appendFileSync(join(copy, 'server', 'app.ts'), "\nexport const buildMarker = 'marker-one';\n");
    writeFileSync(join(copy, 'server', 'extra-module.ts'), "export const extra = 'extra';\n");
    await build();
    expect(readFileSync(join(copy, 'dist', 'server', 'app.js'), 'utf8')).toContain('marker-one');
    expect(existsSync(join(copy, 'dist', 'server', 'extra-module.js'))).toBe(true);

    rmSync(join(copy, 'server', 'extra-module.ts'));
    await build();
    expect(existsSync(join(copy, 'dist', 'server', 'extra-module.js'))).toBe(false);
    expect(existsSync(join(copy, 'dist', 'server', 'extra-module.js.map'))).toBe(false);
    expect(existsSync(join(copy, 'dist', 'server', 'app.js'))).toBe(true);
  }, 60_000);
});
