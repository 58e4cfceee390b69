/** The Prism mock of the three areas on free loopback ports, started as `npm run mock` starts it (scripts/prism.mjs). */
import { type ChildProcess, spawn } from 'node:child_process';
import { prismArgs } from '../../../scripts/prism.mjs';
import { freePort, waitFor } from '../../helpers/spawn-server.js';
import type { Area as AnyArea } from '../suite.js';

/** The areas the mock serves (the console's API is this server's own, not mocked). */
type Area = Exclude<AnyArea, 'console'>;

export interface PrismMocks {
  baseUrl: Record<Area, string>;
  stop(): Promise<void>;
  /** Which mock has exited, and the end of what it printed: said when a request fails to connect. */
  health(): string;
}

export async function startPrism(): Promise<PrismMocks> {
  const areas: Area[] = ['checkout', 'management', 'clientside'];
  const children: ChildProcess[] = [];
  const baseUrl = {} as Record<Area, string>;
  const printed: Record<Area, string> = { checkout: '', management: '', clientside: '' };
  for (const area of areas) {
    const port = await freePort();
    const child = spawn(process.execPath, prismArgs({ root: process.cwd(), area, port }), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (printed[area] = (printed[area] + chunk.toString()).slice(-2000)));
    children.push(child);
    baseUrl[area] = `http://127.0.0.1:${port}`;
  }
  const stop = async () => {
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))));
  };
  try {
    // Any HTTP answer (Prism says 401 without credentials) means the mock is up.
    const up = (url: string) => waitFor(url, 60_000, () => true);
    await Promise.all([up(`${baseUrl.checkout}/sandbox/clock`), up(`${baseUrl.management}/me`), up(`${baseUrl.clientside}/v3/analytics`)]);
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
