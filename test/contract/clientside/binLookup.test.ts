import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_CANNOT_DECRYPT, ERR_UNAUTHORIZED } from '../../../server/kernel/errors.js';
import { fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const lookUp = (encryptedBin: string, supportedBrands = ['visa', 'mc', 'amex']) =>
  fromBrowser(server, '/v3/bin/binLookup', { type: 'card', supportedBrands, encryptedBin, requestId: 'req-7' }, { clientKey, origin: SHOP, keyParam: 'token' });

describe('POST /v3/bin/binLookup', () => {
  test('When the card component sends the first digits of a Visa test card with the key as token, then the answer is a supported Visa with the request id echoed', async () => {
    const response = await lookUp('test_41111111');
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({
      requestId: 'req-7',
      issuingCountryCode: 'US',
      brands: [{ brand: 'visa', supported: true, cvcPolicy: 'required', expiryDatePolicy: 'required', enableLuhnCheck: true }],
    });
  });

  test('When the brand is not among the component brands, then it is answered unsupported; a one-length brand says its length', async () => {
    const response = await lookUp('test_37000000', ['visa', 'mc']);
    expect(response.body.brands).toEqual([expect.objectContaining({ brand: 'amex', supported: false, panLength: 15 })]);
  });

  test('When the digits are a Bancontact card, then no security code is asked for', async () => {
    const response = await lookUp('test_67034444', ['bcmc']);
    expect(response.body.brands[0]).toMatchObject({ brand: 'bcmc', supported: true, cvcPolicy: 'hidden' });
  });

  test('When the digits match no brand, then the answer has no brands', async () => {
    expect((await lookUp('test_99999999')).body).toEqual({ requestId: 'req-7', brands: [] });
  });

  test('When the digits are not a test value, then the answer is 422 with code 174', async () => {
    expect((await lookUp('adyenjs_0_1_25$abc')).body).toMatchObject({ status: 422, errorCode: ERR_CANNOT_DECRYPT.code });
  });

  test('When no key is sent, then the answer is 401 and no lookup is made', async () => {
    const response = await fromBrowser(server, '/v3/bin/binLookup', { encryptedBin: 'test_41111111', requestId: 'r' }, { clientKey: undefined, origin: SHOP });
    expect(response.body).toMatchObject({ status: 401, errorCode: ERR_UNAUTHORIZED.code });
  });
});
