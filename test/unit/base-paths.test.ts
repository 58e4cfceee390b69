/**
 * The areas' base paths are written once, in server/base-paths.json: the server's routing
 * (kernel/http/area.ts), the API reference and `npm run mock` read them there. The bundled specs
 * name them too, as their `servers`, which clients and Prism read: the two must agree.
 */
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BASE_PATHS from '../../server/base-paths.json' with { type: 'json' };
import { AREA_BASE } from '../../server/docs/pages.js';
import { CHECKOUT_BASE, CLIENTSIDE_BASE, CONSOLE_BASE, MANAGEMENT_BASE } from '../../server/kernel/http/area.js';

const servers = (area: string) =>
  (JSON.parse(readFileSync(join(process.cwd(), 'generated', `${area}.json`), 'utf8')) as { servers: Array<{ url: string }> }).servers.map((s) => s.url);

describe('Base paths', () => {
  test.each(['checkout', 'management', 'clientside', 'console'] as const)(
    'When the %s spec is bundled, then its server is the base path the server routes',
    (area) => {
      expect(servers(area)).toEqual([BASE_PATHS[area]]);
    },
  );

  test('When the server and the API reference route an area, then they use the base paths of server/base-paths.json', () => {
    expect({ checkout: CHECKOUT_BASE, management: MANAGEMENT_BASE, clientside: CLIENTSIDE_BASE, console: CONSOLE_BASE }).toEqual(BASE_PATHS);
    expect(AREA_BASE).toEqual(BASE_PATHS);
  });
});
