import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { consoleSessionHash } from '../../../server/kernel/auth/console-session.js';
import { asPage, signIn } from '../../helpers/console.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const sessionRow = (cookie: string) => server.store.read((tx) => tx.console.getSession(consoleSessionHash(tx, cookie.split('=')[1]!)));

describe('DELETE /session', () => {
  test('When the page signs out, then the row is deleted, the cookie is cleared and refused by every area', async () => {
    const session = await signIn(server, COMPANY_KEY);
    const response = await asPage(`${server.consoleUrl}/session`, { method: 'DELETE', cookie: session.cookie, csrfToken: session.csrfToken });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/^console_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect(await sessionRow(session.cookie)).toBeUndefined();
    expect((await asPage(`${server.consoleUrl}/session`, { cookie: session.cookie })).status).toBe(401);
    expect((await asPage(`${server.managementUrl}/me`, { cookie: session.cookie })).status).toBe(401);
  });

  test('When the sign-out comes without the CSRF token, then it is refused with 403 and the session stays', async () => {
    const session = await signIn(server, COMPANY_KEY);
    const response = await asPage(`${server.consoleUrl}/session`, { method: 'DELETE', cookie: session.cookie });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ status: 403, errorCode: '00_403' });
    expect(await sessionRow(session.cookie)).toBeDefined();
    expect((await asPage(`${server.consoleUrl}/session`, { cookie: session.cookie })).status).toBe(200);
  });

  test("When the sign-out comes with another session's CSRF token, then it is refused and both sessions stay", async () => {
    const mine = await signIn(server, COMPANY_KEY);
    const theirs = await signIn(server, COMPANY_KEY);
    expect((await asPage(`${server.consoleUrl}/session`, { method: 'DELETE', cookie: mine.cookie, csrfToken: theirs.csrfToken })).status).toBe(403);
    expect(await sessionRow(mine.cookie)).toBeDefined();
  });
});
