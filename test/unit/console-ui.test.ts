/**
 * The server side of the console UI (server/console-ui): the HTML shell for every page under
 * /console with its Content-Security-Policy, the built assets, and a page that says what to do
 * when the UI is not built. The UI itself is tested in Chromium (test/browser/console.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import express from 'express';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import BASE_PATHS from '../../server/base-paths.json' with { type: 'json' };
import { consoleUi } from '../../server/console-ui/console-ui.js';

const built = mkdtempSync(join(tmpdir(), 'console-ui-built-'));
const empty = mkdtempSync(join(tmpdir(), 'console-ui-empty-'));
const servers: Server[] = [];

async function serve(dir: string): Promise<string> {
  const app = express();
  app.use(consoleUi({ dir }));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let builtUrl: string;
let emptyUrl: string;

beforeAll(async () => {
  writeFileSync(join(built, 'main.js'), 'export {};\n');
  writeFileSync(join(built, 'console.css'), 'body {}\n');
  writeFileSync(join(built, 'manifest.json'), JSON.stringify({ 'main.js': 'aaaaaaaaaaaa', 'console.css': 'bbbbbbbbbbbb' }));
  [builtUrl, emptyUrl] = await Promise.all([serve(built), serve(empty)]);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(built, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe('Console UI pages', () => {
  test.each(['/console', '/console/', '/console/payments', '/console/payments/ABC', '/console/requests/1?x=y'])(
    'When %s is asked for, then the shell names the hashed assets under a CSP of this origin only',
    async (path) => {
      const response = await fetch(`${builtUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self';/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain('<script type="module" src="/console/assets/main.js?v=aaaaaaaaaaaa"></script>');
      expect(html).toContain('<link rel="stylesheet" href="/console/assets/console.css?v=bbbbbbbbbbbb">');
    },
  );

  test('When an asset is asked for, then it comes with its type; a name that is not an asset is not served', async () => {
    const css = await fetch(`${builtUrl}/console/assets/console.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe('body {}\n');
    expect((await fetch(`${builtUrl}/console/assets/manifest.json`)).status).toBe(404);
  });

  test('When the UI is not built, then its pages and assets answer 503 saying to run npm run build', async () => {
    for (const path of ['/console', '/console/payments', '/console/assets/main.js']) {
      const response = await fetch(`${emptyUrl}${path}`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build');
    }
  });

  test('When the UI calls an API, then it uses the base paths of server/base-paths.json', () => {
    // The UI imports nothing of the server's, so it writes the paths itself.
    const source = readFileSync(join(process.cwd(), 'console', 'src', 'api.ts'), 'utf8');
    const written = /export const BASE = (\{[^}]*\})/
      .exec(source)![1]!
      .replace(/(\w+):/g, '"$1":')
      .replace(/'/g, '"');
    const { console: consoleBase, checkout, management } = BASE_PATHS;
    expect(JSON.parse(written)).toEqual({ console: consoleBase, checkout, management });
  });
});
