import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_FIELD_INVALID, ERR_FIELD_REQUIRED, ERR_INVALID_MERCHANT_ACCOUNT, ERR_UNAUTHORIZED } from '../../../server/kernel/errors.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { COMPANY_KEY } from '../../helpers/keys.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const validate = (paymentMethod: { type: 'payTo' | 'upi_collect'; virtualPaymentAddress?: string; shopperReference?: string }) =>
  server.checkout.POST('/validateShopperId', { body: { merchantAccount: 'DemoMerchantECOM', paymentMethod } });
const raw = (body: unknown, key: string | null = COMPANY_KEY) =>
  fetch(`${server.checkoutUrl}/validateShopperId`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key !== null && { 'X-API-Key': key }) },
    body: JSON.stringify(body),
  });
const problem = {
  type: expect.any(String),
  title: expect.any(String),
  detail: expect.any(String),
  requestId: expect.any(String),
};

describe('POST /validateShopperId', () => {
  test.each([
    ['asha.k@okbank', 'VALID'],
    ['name.surname-1@ybl', 'VALID'],
    ['asha.k@unknown', 'UNKNOWN'],
    ['asha.k', 'INVALID'],
    ['a@b', 'INVALID'],
    ['two@at@bank', 'INVALID'],
  ])('When the UPI virtual payment address is %s, then the result is %s', async (virtualPaymentAddress, result) => {
    const { data, response } = await validate({ type: 'upi_collect', virtualPaymentAddress });
    expect(response.status).toBe(200);
    expect(data?.result).toBe(result);
    if (result !== 'VALID') expect(data?.reason).toEqual(expect.any(String));
  });

  test('When no virtual payment address is given for UPI, then the result is INVALID and says why', async () => {
    expect((await validate({ type: 'upi_collect' })).data).toEqual({ result: 'INVALID', reason: 'No virtualPaymentAddress to check' });
  });

  test('When the method is PayTo, then no check is needed', async () => {
    expect((await validate({ type: 'payTo', shopperReference: 'shopper-4711' })).data?.result).toBe('NOT_REQUIRED');
  });

  test('When the payment method type is not one it checks, then the answer is a 422 problem (RFC 7807) naming the field', async () => {
    const response = await raw({ merchantAccount: 'DemoMerchantECOM', paymentMethod: { type: 'ideal' } });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      ...problem,
      status: 422,
      errorCode: ERR_FIELD_INVALID.code,
      invalidFields: [expect.objectContaining({ name: 'paymentMethod.type', value: 'ideal' })],
    });
  });

  test('When a field is missing or unknown, then the answer is a 422 problem with code 158 or 192', async () => {
    const missing = await raw({ paymentMethod: { type: 'payTo' } });
    expect(await missing.json()).toMatchObject({
      ...problem,
      status: 422,
      errorCode: ERR_FIELD_REQUIRED.code,
      invalidFields: [expect.objectContaining({ name: 'merchantAccount' })],
    });
    const unknown = await raw({ merchantAccount: 'DemoMerchantECOM', paymentMethod: { type: 'payTo' }, shopperName: 'Asha' });
    expect(await unknown.json()).toMatchObject({
      status: 422,
      errorCode: ERR_FIELD_INVALID.code,
      invalidFields: [expect.objectContaining({ name: 'shopperName' })],
    });
  });

  test('When the caller has no key, or names a merchant account it does not reach, then the refusals are problems too (401 000, 403 901)', async () => {
    const anonymous = await raw({ merchantAccount: 'DemoMerchantECOM', paymentMethod: { type: 'payTo' } }, null);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ ...problem, status: 401, errorCode: ERR_UNAUTHORIZED.code });
    const elsewhere = await raw({ merchantAccount: 'NoSuchMerchant', paymentMethod: { type: 'payTo' } });
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toMatchObject({ ...problem, status: 403, errorCode: ERR_INVALID_MERCHANT_ACCOUNT.code });
  });

  test('When another checkout operation fails, then its error is still a ServiceError', async () => {
    const response = await fetch(`${server.checkoutUrl}/paymentMethods`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
      body: JSON.stringify({}),
    });
    expect(await response.json()).toEqual({ status: 422, errorCode: ERR_FIELD_REQUIRED.code, message: expect.any(String), errorType: 'validation' });
  });
});
