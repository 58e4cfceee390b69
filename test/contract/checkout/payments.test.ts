import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ERR_ALREADY_PROCESSED,
  ERR_CANNOT_DECRYPT,
  ERR_EXPIRY_INVALID,
  ERR_INVALID_CARD_NUMBER,
  ERR_INVALID_DETAILS,
  ERR_INVALID_MERCHANT_ACCOUNT,
} from '../../../server/kernel/errors.js';
import { freshDatabase } from '../../helpers/database.js';
import { buildPaymentRequest, rawCard } from '../../helpers/factories.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const redirectUrl = (started: { action?: { type: string; url?: string } } | undefined): string => {
  expect(started?.action?.type).toBe('redirect');
  return (started!.action as { url: string }).url;
};

/** Follows a RedirectShopper action the way a shopper's browser would, choosing the outcome. */
async function completeRedirect(url: string, outcome: 'authorised' | 'refused'): Promise<string> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const complete = await fetch(`${url}/complete?outcome=${outcome}`, { redirect: 'manual' });
  expect(complete.status).toBe(302);
  const location = new URL(complete.headers.get('location')!);
  expect(location.origin + location.pathname).toBe('https://shop.example.com/checkout/return');
  return location.searchParams.get('redirectResult')!;
}

describe('POST /payments', () => {
  test('When a test card is sent as test_-prefixed encrypted fields, then the payment is authorised with the brand and only the last four digits', async () => {
    const { data, response } = await server.checkout.POST('/payments', { body: buildPaymentRequest() });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { brand: 'visa', type: 'scheme' }, amount: { currency: 'EUR', value: 1000 } });
    expect(data?.pspReference).toMatch(/^[0-9A-Z]{16}$/);
    expect(data?.additionalData).toMatchObject({ cardSummary: '1111', cardBin: '411111', expiryDate: '3/2030' });
    expect(data?.additionalData?.authCode).toMatch(/^\d{6}$/);
    expect(JSON.stringify(data)).not.toContain('4111111111111111');
  });

  test.each([
    ['5555555555554444', 'mc'],
    ['370000000000002', 'amex'],
    ['3569990010095841', 'jcb'],
    ['6703444444444449', 'bcmc'],
    ['6243030000000001', 'cup'],
    ['2222400070000005', 'mc'],
  ])('When the raw card %s is paid with, then its brand is %s', async (number, brand) => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard(number) }) });
    expect(data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { brand } });
  });

  test.each([
    ['NOT_ENOUGH_BALANCE', 'Not enough balance', '12'],
    ['BLOCK_CARD', 'Blocked Card', '5'],
    ['DECLINED', 'Refused', '2'],
    ['FRAUD', 'FRAUD', '20'],
  ])('When the holder name is the test value %s, then the payment is refused with reason %s', async (holderName, reason, code) => {
    const { data, response } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: rawCard('5555555555554444', { holderName }) }),
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ resultCode: 'Refused', refusalReason: reason, refusalReasonCode: code });
    expect(data?.additionalData?.authCode).toBeUndefined();
  });

  test('When the card expired before the server clock, then the payment is refused as Expired Card', async () => {
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: rawCard('4111111145551142', { expiryMonth: '01', expiryYear: '2020' }) }),
    });
    expect(data).toMatchObject({ resultCode: 'Refused', refusalReason: 'Expired Card', refusalReasonCode: '6' });
  });

  test('When the card number fails the Luhn check, then the answer is 422 with code 101', async () => {
    const { error, response } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard('4111111111111112') }) });
    expect(response.status).toBe(422);
    expect(error).toEqual({ status: 422, errorCode: ERR_INVALID_CARD_NUMBER.code, message: ERR_INVALID_CARD_NUMBER.message, errorType: 'validation' });
  });

  test('When the expiry month is 13, then the answer is 422 with code 141', async () => {
    const { error } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: rawCard('4111111111111111', { expiryMonth: '13' }) }),
    });
    expect(error?.errorCode).toBe(ERR_EXPIRY_INVALID.code);
  });

  test('When an encrypted field is real ciphertext rather than a test_ value, then the answer is 422 with code 174', async () => {
    const body = buildPaymentRequest({
      paymentMethod: { type: 'scheme', encryptedCardNumber: 'adyenjs_0_1_25$abc', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030' },
    });
    const { error } = await server.checkout.POST('/payments', { body });
    expect(error?.errorCode).toBe(ERR_CANNOT_DECRYPT.code);
  });

  test('When the merchant credential pays on a merchant account it does not reach, then the answer is 403 with code 901', async () => {
    const { error, response } = await server.merchantCheckout.POST('/payments', { body: buildPaymentRequest({ merchantAccount: 'DemoMerchantPOS' }) });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ status: 403, errorCode: ERR_INVALID_MERCHANT_ACCOUNT.code, errorType: 'security' });
  });

  test('When the merchant account does not exist, then the answer is 403 with code 901', async () => {
    const { error } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ merchantAccount: 'NoSuchMerchant' }) });
    expect(error?.errorCode).toBe('901');
  });

  test('When the amount is not a safe integer, then the answer is 422 naming the field', async () => {
    const response = await fetch(`${server.checkoutUrl}/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': 'test-company-key-000000000000000001' },
      body: JSON.stringify(buildPaymentRequest()).replace('"value":1000', '"value":9007199254740993'),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ status: 422, errorCode: '192', errorType: 'validation', message: expect.stringContaining("'amount.value'") });
  });
});

describe('POST /payments with 3D Secure, then POST /payments/details', () => {
  test('When the challenge card is paid with, then the shopper is redirected and the details call authorises the payment', async () => {
    const body = buildPaymentRequest({ paymentMethod: rawCard('4212345678910006') });
    const { data: started } = await server.checkout.POST('/payments', { body });
    expect(started).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET' } });
    expect(started?.additionalData).toBeUndefined();
    const redirectResult = await completeRedirect(redirectUrl(started), 'authorised');

    const { data: finished, response } = await server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });
    expect(response.status).toBe(200);
    expect(finished).toMatchObject({ pspReference: started!.pspReference, resultCode: 'Authorised', merchantReference: body.reference });
  });

  test('When the shopper fails authentication, then the details call refuses the payment as 3D Not Authenticated', async () => {
    const { data: started } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ additionalData: { executeThreeD: 'true' } }),
    });
    expect(started?.resultCode).toBe('RedirectShopper');
    const redirectResult = await completeRedirect(redirectUrl(started), 'refused');
    const { data } = await server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });
    expect(data).toMatchObject({ resultCode: 'Refused', refusalReason: '3D Not Authenticated', refusalReasonCode: '11' });
  });

  test('When a redirect result is submitted twice without an idempotency key, then the second gets 422 with code 704', async () => {
    const { data: started } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard('4212345678910006') }) });
    const redirectResult = await completeRedirect(redirectUrl(started), 'authorised');
    await server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });
    const { error, response } = await server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });
    expect(response.status).toBe(422);
    expect(error?.errorCode).toBe(ERR_ALREADY_PROCESSED.code);
  });

  test('When the redirect result was tampered with, then the answer is 422 with code 14_005', async () => {
    const { data: started } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard('4212345678910006') }) });
    const redirectResult = await completeRedirect(redirectUrl(started), 'refused');
    const [payload, mac] = redirectResult.split('.');
    const forged = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('refused', 'authorised')).toString('base64url');
    const { error } = await server.checkout.POST('/payments/details', { body: { details: { redirectResult: `${forged}.${mac}` } } });
    expect(error?.errorCode).toBe(ERR_INVALID_DETAILS.code);
  });
});

describe('Card data at rest', () => {
  test('When payments are stored in a database file, then no full card number or security code is in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pan-'));
    const database = await freshDatabase(dir);
    const fileServer = await startServer(database.config);
    try {
      await fileServer.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard('5555341244441115', { cvc: '737' }) }) });
      await fileServer.checkout.POST('/payments', { body: buildPaymentRequest() });
    } finally {
      await fileServer.stop();
    }
    const bytes = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => statSync(join(dir, f)).isFile())
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('');
    const tables = JSON.stringify(await database.dump());
    for (const stored of [bytes, tables]) {
      expect(stored).not.toContain('5555341244441115');
      expect(stored).not.toContain('4111111111111111');
    }
    const rows = await database.rows('SELECT card_bin, card_last_four FROM payments');
    await database.drop();
    expect(rows).toEqual(expect.arrayContaining([{ card_bin: '555534', card_last_four: '1115' }]));
  });
});
