/** The Prism mock of both areas on free loopback ports, as test/contract/examples.test.ts runs it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, waitFor } from '../../helpers/spawn-server.js';
import type { Area } from '../suite.js';

export interface PrismMocks {
  baseUrl: Record<Area, string>;
  stop(): Promise<void>;
  /** Which mock has exited, and the end of what it printed: said when a request fails to connect. */
  health(): string;
}

export async function startPrism(): Promise<PrismMocks> {
  const areas: Area[] = ['checkout', 'management'];
  const children: ChildProcess[] = [];
  const baseUrl = {} as Record<Area, string>;
  const printed: Record<Area, string> = { checkout: '', management: '' };
  for (const area of areas) {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [join(process.cwd(), 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'), 'mock', '-h', '127.0.0.1', '-p', String(port), join('generated', `${area}.yaml`)],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => (printed[area] = (printed[area] + chunk.toString()).slice(-2000)));
    children.push(child);
    baseUrl[area] = `http://127.0.0.1:${port}`;
  }
  const stop = async () => {
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))));
  };
  try {
    // Any HTTP answer (Prism says 401 without credentials) means the mock is up.
    const up = (url: string) => waitFor(url, 60_000, () => true);
    await Promise.all([up(`${baseUrl.checkout}/sandbox/clock`), up(`${baseUrl.management}/me`)]);
  } catch (error) {
    await stop();
    throw error;
  }
  const health = () =>
    areas
      .map((area, i) => {
        const child = children[i]!;
        const state = child.exitCode !== null || child.signalCode !== null ? `exited (${child.exitCode ?? child.signalCode})` : 'running';
        return `${area} mock ${state}${printed[area] ? `; it printed: ${printed[area]}` : ''}`;
      })
      .join('\n');
  return { baseUrl, stop, health };
}
