import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const lookUp = (body: Record<string, unknown>) => server.checkout.POST('/cardDetails', { body: { merchantAccount: 'DemoMerchantECOM', ...body } });

describe('POST /cardDetails', () => {
  test('When the first six digits of a known Visa range are sent, then the brand is supported and the issuer data is given', async () => {
    const { data } = await lookUp({ cardNumber: '411111' });
    expect(data).toEqual({ brands: [{ type: 'visa', supported: true }], fundingSource: 'CREDIT', isCardCommercial: false, issuingCountryCode: 'US' });
  });

  test('When the card is a commercial Mastercard, then isCardCommercial is true', async () => {
    const { data } = await lookUp({ encryptedCardNumber: 'test_5555341244441115' });
    expect(data).toMatchObject({ brands: [{ type: 'mc', supported: true }], isCardCommercial: true, issuingCountryCode: 'GB' });
  });

  test('When supportedBrands does not list the brand, then it is not supported', async () => {
    const { data } = await lookUp({ cardNumber: '4111111111111111', supportedBrands: ['mc'] });
    expect(data?.brands).toEqual([{ type: 'visa', supported: false }]);
  });

  test('When the brand is disabled for the merchant account, then it is not supported', async () => {
    const { data } = await lookUp({ cardNumber: '36006666333344' });
    expect(data?.brands).toEqual([{ type: 'diners', supported: false }]);
  });

  test('When the range is not in the issuer table, then only the brands are given', async () => {
    const { data } = await lookUp({ cardNumber: '400000' });
    expect(data).toEqual({ brands: [{ type: 'visa', supported: true }] });
  });

  test.each([
    ['five digits', { cardNumber: '41111' }],
    ['an encrypted number of 15001 characters', { encryptedCardNumber: `test_${'4'.repeat(14996)}` }],
    ['no number at all', {}],
  ])('When the request has %s, then the answer is 422', async (_name, body) => {
    const { response } = await lookUp(body);
    expect(response.status).toBe(422);
  });
});
