import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_SESSION_DATA } from '../../../server/kernel/errors.js';
import { createSession, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const givex = (number = '4126491073027401', pin = '737') => ({
  type: 'giftcard',
  brand: 'givex',
  encryptedCardNumber: `test_${number}`,
  encryptedSecurityCode: `test_${pin}`,
});
const balance = (id: string, sessionData: string, paymentMethod: unknown) =>
  fromBrowser(server, `/v1/sessions/${id}/paymentMethodBalance`, { sessionData, paymentMethod }, { clientKey, origin: SHOP });

describe('POST /v1/sessions/{sessionId}/paymentMethodBalance', () => {
  test('When the gift card component checks a sandbox Givex card, then the answer is its balance and the session data', async () => {
    const s = await createSession(server);
    const response = await balance(s.id, s.sessionData, givex());
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ sessionData: s.sessionData, balance: eur(5000) });
  });

  test('When the PIN is wrong or the card unknown, then the answer has no balance (the library says the card cannot be used)', async () => {
    const s = await createSession(server);
    expect((await balance(s.id, s.sessionData, givex('4126491073027401', '000'))).body).toEqual({ sessionData: s.sessionData });
    expect((await balance(s.id, s.sessionData, givex('6000000000000000', '737'))).body).toEqual({ sessionData: s.sessionData });
  });

  test("When the session data is another session's, then the answer is 422 with code 14_0022", async () => {
    const a = await createSession(server);
    const b = await createSession(server);
    expect((await balance(a.id, b.sessionData, givex())).body).toMatchObject({ status: 422, errorCode: ERR_SESSION_DATA.code });
  });
});
