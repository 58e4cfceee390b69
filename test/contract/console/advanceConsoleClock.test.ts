import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DEMO } from '../../../server/seed.js';
import { asPage, signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let company: ConsoleSignIn;
beforeAll(async () => {
  server = await startServer();
  company = await signIn(server, COMPANY_KEY);
});
afterAll(() => server.stop());

const advance = (who: ConsoleSignIn, seconds: number, csrf = true) =>
  asPage(`${server.consoleUrl}/clock/advance`, { method: 'POST', cookie: who.cookie, ...(csrf && { csrfToken: who.csrfToken }), body: { seconds } });

describe('POST /clock/advance', () => {
  test('When the clock is moved past a delayed capture, then the answer lists it as due and the clock moved by the seconds asked', async () => {
    const psp = await authorisedPayment(server, { captureDelayHours: 2 });
    const { status, body } = await advance(company, 3 * 3600);
    expect(status).toBe(200);
    expect(Date.parse(body.now) - Date.parse(body.before)).toBeGreaterThanOrEqual(3 * 3600 * 1000);
    expect(body.due).toContainEqual({ kind: 'delayedCapture', pspReference: psp, merchantAccount: DEMO.merchantEcom, dueAt: expect.any(String) });
  });

  test('When the clock is moved again by a second, then nothing already due is listed again', async () => {
    const { body } = await advance(company, 1);
    expect(body.due).toEqual([]);
  });

  test('When a merchant session asks to move the clock, then it is refused with 403 and the clock stays', async () => {
    const before = server.clock.now().getTime();
    const refused = await advance(await signIn(server, MERCHANT_KEY), 86_400);
    expect(refused.status).toBe(403);
    expect(server.clock.now().getTime() - before).toBeLessThan(86_400_000);
  });

  test('When the advance comes without the CSRF token, then it is refused and the clock stays', async () => {
    const before = server.clock.now().getTime();
    expect((await advance(company, 86_400, false)).status).toBe(403);
    expect(server.clock.now().getTime() - before).toBeLessThan(86_400_000);
  });
});
