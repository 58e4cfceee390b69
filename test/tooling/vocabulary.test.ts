/**
 * The vocabulary check (scripts/check-vocabulary.mjs, `npm run lint:vocabulary`): it refuses
 * milestone names and issue numbers in files and in file and folder names, and passes text that
 * only looks like them. The planted words are built from pieces, so that this file passes the
 * check itself.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(process.cwd(), 'scripts', 'check-vocabulary.mjs');
const STOP = ['st', 'op'].join('');
const WAVE = ['wa', 've'].join('');
const ISSUE = ['iss', 'ue'].join('');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new folder holding these files (path → text or bytes). */
function folder(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vocabulary-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Runs the check on these arguments: its exit code and the problems it lists, one per line. */
function check(args: string[], cwd = process.cwd()): { code: number | null; problems: string[]; out: string } {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  const problems = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('  '))
    .map((line) => line.trim());
  return { code: result.status, problems, out: result.stdout };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd, stdio: 'ignore' });

describe('The vocabulary check', () => {
  test('When files hold milestone names and issue numbers, then it fails and names each with file and line', () => {
    const dir = folder({
      'notes.md': `# Notes\n\nMeasured at ${STOP} 33 on the reference.\n`,
      'code.ts': `// ${STOP.toUpperCase()}32's profile shows it\n// see ${ISSUE} 32\n// #${17}: list and replay\nconst x = 1;\n`,
      'run.mjs': `// the ${WAVE}2 figures\n`,
    });
    const { code, problems } = check([join(dir, 'notes.md'), join(dir, 'code.ts'), join(dir, 'run.mjs')]);
    expect(code).toBe(1);
    expect(problems).toEqual([
      `${join(dir, 'notes.md')}:3: "${STOP} 33" (a milestone name)`,
      `${join(dir, 'code.ts')}:1: "${STOP.toUpperCase()}32" (a milestone name)`,
      `${join(dir, 'code.ts')}:2: "${ISSUE} 32" (an issue number)`,
      `${join(dir, 'code.ts')}:3: "#17" (an issue number)`,
      `${join(dir, 'run.mjs')}:1: "${WAVE}2" (a milestone name)`,
    ]);
  });

  test('When a folder or file is named after a milestone, then it fails naming the folder once and the file', () => {
    const dir = folder({
      [`results/${WAVE}2-${STOP}33/a.txt`]: 'figures\n',
      [`results/${WAVE}2-${STOP}33/b.txt`]: 'figures\n',
      [`${STOP}-3.md`]: 'text\n',
    });
    const { code, problems } = check([dir]);
    expect(code).toBe(1);
    expect(problems.sort()).toEqual(
      [
        `results/${WAVE}2-${STOP}33: the name holds "${STOP}33" (a milestone name)`,
        `results/${WAVE}2-${STOP}33: the name holds "${WAVE}2" (a milestone name)`,
        `${STOP}-3.md: the name holds "${STOP}-3" (a milestone name)`,
      ].sort(),
    );
  });

  test('When a git repository tracks a planted word, then it fails; an untracked file is not read; once the word is gone, it passes', () => {
    const dir = folder({ 'README.md': `Figures of ${STOP} 12.\n`, 'scratch.txt': `${STOP} 13\n` });
    git(dir, 'init', '-q');
    git(dir, 'add', 'README.md');
    git(dir, 'commit', '-q', '-m', 'first');
    const refused = check([dir]);
    expect(refused.code).toBe(1);
    expect(refused.problems).toEqual([`README.md:1: "${STOP} 12" (a milestone name)`]);

    writeFileSync(join(dir, 'README.md'), 'Figures of the latest run.\n');
    git(dir, 'commit', '-q', '-am', 'second');
    const passed = check([dir]);
    expect([passed.code, passed.problems]).toEqual([0, []]);
    expect(passed.out).toContain('in 1 files');
  });

  test('When text only looks like a milestone or an issue number, then it passes', () => {
    const dir = folder({
      'clean.md': [
        'The nonstop 24 hour run; stop all 3 instances; the shock wave reached them.',
        "A shopper statement 'Shop #1' is refused; see section 5.",
        'This session holds 2 payments; stopping takes 10 s.',
        '',
      ].join('\n'),
      'page.ts': "const css = 'body{color:#333}.b{border:1px solid #888;background: #fff}';\n",
      'profile.cpuprofile.gz': Buffer.concat([Buffer.from([0x1f, 0x8b, 0, 0]), Buffer.from(`${STOP} 33 #17`)]),
      'package-lock.json': `{"name": "${WAVE}2"}\n`,
    });
    const { code, problems } = check([dir]);
    expect([code, problems]).toEqual([0, []]);
  });
});
