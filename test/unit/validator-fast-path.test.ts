import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validatorFastPath } from '../../server/kernel/http/validator.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

// The server replaces some internals of express-openapi-validator 5.6.2 (server/kernel/http/validator.ts;
// docs/performance.md, "Replaced internals of dependencies", says what each is worth). An upgrade that
// moves them falls back to the stock, slower path silently; this test makes it loud, naming the
// installed version, and checks that the replacement route lookup answers as the validator's own did.
const validatorPackage = join(process.cwd(), 'node_modules', 'express-openapi-validator', 'package.json');
const { version } = JSON.parse(readFileSync(validatorPackage, 'utf8')) as { version: string };

/** Fails with what is missing, the installed version and what to do about it. */
function expectInternalsInPlace(missing: string[]): void {
  if (missing.length === 0) return;
  throw new Error(
    `express-openapi-validator ${version} no longer has the internals server/kernel/http/validator.ts replaces ` +
      `(written against 5.6.2): ${missing.join('; ')}. The server still answers, through the library's slower paths. ` +
      'Adapt validator.ts to this version or drop the replacement, and measure again (docs/performance.md, "Replaced internals of dependencies").',
  );
}
describe('Request validation with compiled routes and slim validator documents', () => {
  let server: TestServer;
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, { ...init, headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.stop());

  test('When the server has validated a request and a response, then the fast paths were installed', async () => {
    const response = await get('/management/v3/me');
    expect(response.status).toBe(200);
    expectInternalsInPlace(
      Object.entries(validatorFastPath)
        .filter(([, inPlace]) => !inPlace)
        .map(([part]) => `${part} is not in place`),
    );
    expect(validatorFastPath).toEqual({ routeLookup: true, slimDocument: true, slimPreprocessing: true, skippedSpecValidation: true, unoptimizedCode: true });
  });

  test('When the route lookup compiles path templates, then it compiles them with the path-to-regexp the validator uses', () => {
    // validator.ts matches with its own copy of the validator's path matcher: two versions could match differently.
    // Read off node_modules as Node resolves them (the suite loads both bundled, scripts/test-vendor.mjs).
    const packageOf = (...path: string[]) => join(process.cwd(), 'node_modules', ...path, 'package.json');
    const nested = packageOf('express-openapi-validator', 'node_modules', 'path-to-regexp');
    const ours = packageOf('path-to-regexp');
    const fromValidator = existsSync(nested) ? nested : ours;
    expectInternalsInPlace(fromValidator === ours ? [] : [`it matches paths with ${fromValidator}, validator.ts with ${ours}`]);
  });

  test('When a path parameter is percent-encoded, then the handler sees it decoded', async () => {
    // %44 is "D": the merchant is found only if the parameter was decoded.
    const response = await get('/management/v3/merchants/%44emoMerchantECOM/apiCredentials?pageSize=1');
    expect(response.status).toBe(200);
    const malformed = await get('/management/v3/merchants/%E0%A4%A/apiCredentials');
    expect(malformed.status).toBe(422);
  });

  test('When a path exists without the method, then the answer is 405 in the area shape', async () => {
    const response = await get('/management/v3/me', { method: 'PUT', body: '{}' });
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ status: 405, errorCode: expect.any(String) });
  });

  test('When a request body breaks a schema reached only through references, then it is refused with the field named', async () => {
    // PaymentRequest → amount → Amount.value: an integer, three levels of $ref in spec/.
    const response = await get('/checkout/v71/payments', {
      method: 'POST',
      body: JSON.stringify({
        merchantAccount: 'DemoMerchantECOM',
        reference: 'fast-path',
        amount: { currency: 'EUR', value: 'ten' },
        paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
        returnUrl: 'https://shop.example/return',
      }),
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('amount');
  });
});
