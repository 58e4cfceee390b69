/**
 * `npm run mock` stops with its Prism children: on SIGTERM or SIGINT to scripts/mock.mjs, and on
 * SIGTERM to npm (which ends npm and its shell, not the script), the mock exits only once the
 * children have, and nothing answers on its ports or theirs. Linux: the children are found in /proc.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../helpers/spawn-server.js';

interface Mock {
  /** The process the signal is sent to: node scripts/mock.mjs, or npm. */
  launcher: ChildProcess;
  ports: number[];
  output: () => string;
}

const started: ChildProcess[] = [];
afterEach(() => {
  // A failed test leaves nothing behind: the launcher's whole process group (its own process may be gone, the rest not).
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // nothing left in the group
    }
  }
});

/** Pid → parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const found = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, the last ')' ends it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      found.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Every process below `pid`. */
function descendants(pid: number): number[] {
  const all = parents();
  const below: number[] = [];
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = [...all].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    below.push(...frontier);
  }
  return below;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function startMock(how: 'node' | 'npm'): Promise<Mock> {
  const ports = [await freePort(), await freePort()];
  const env = { ...process.env, NODE_OPTIONS: '', MOCK_CHECKOUT_PORT: String(ports[0]), MOCK_MANAGEMENT_PORT: String(ports[1]) };
  const launcher =
    how === 'node'
      ? spawn(process.execPath, [join(process.cwd(), 'scripts', 'mock.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
      : spawn('npm', ['run', '--silent', 'mock'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(launcher);
  let output = '';
  launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!output.includes('Mock ready')) {
    if (Date.now() > deadline || launcher.exitCode !== null) throw new Error(`the mock did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { launcher, ports, output: () => output };
}

/** The Prism children (their command line names prism-cli) and the private ports they listen on. */
function prismOf(mock: Mock): { pids: number[]; ports: number[] } {
  const prism = descendants(mock.launcher.pid!).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('prism-cli');
    } catch {
      return false;
    }
  });
  const ports = prism.map((pid) => {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return Number(args[args.indexOf('-p') + 1]);
  });
  return { pids: prism, ports };
}

async function expectStopped(mock: Mock, prism: { pids: number[]; ports: number[] }, everything: number[]): Promise<void> {
  for (let i = 0; i < 200 && everything.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(everything.filter(alive)).toEqual([]);
  expect(prism.pids.filter(alive)).toEqual([]);
  for (const port of [...mock.ports, ...prism.ports]) expect([port, await answers(port)]).toEqual([port, false]);
}

describe('Stopping the mock', () => {
  test.each<[NodeJS.Signals]>([['SIGTERM'], ['SIGINT']])(
    'When node scripts/mock.mjs gets %s, then it exits 0 after its Prism children, and none of their ports answers',
    async (signal) => {
      const mock = await startMock('node');
      const prism = prismOf(mock);
      // checkout, management and client-side
      expect(prism.pids).toHaveLength(3);
      for (const port of [...mock.ports, ...prism.ports]) expect(await answers(port)).toBe(true);
      const exited = new Promise<number | null>((resolve) => mock.launcher.once('exit', resolve));
      mock.launcher.kill(signal);
      expect(await exited).toBe(0);
      // The mock exits only once its children have: they are gone already.
      expect(prism.pids.filter(alive)).toEqual([]);
      await expectStopped(mock, prism, prism.pids);
    },
    120_000,
  );

  test('When npm run mock gets SIGTERM (npm and its shell end, the script is not signalled), then the script and its Prism children stop too', async () => {
    const mock = await startMock('npm');
    const everything = descendants(mock.launcher.pid!);
    const prism = prismOf(mock);
    expect(prism.pids).toHaveLength(3);
    mock.launcher.kill('SIGTERM');
    await expectStopped(mock, prism, everything);
  }, 120_000);
});
