import { describe, expect, test } from '@jest/globals';
import { ibanProblem, maskIban } from '../../server/checkout/payments/iban.js';

describe('IBAN checks', () => {
  test.each([
    'NL13TEST0123456789',
    'nl13 test 0123 4567 89',
    'DE87123456781234567890',
    'NL98ABNA0410108103',
    'BE68539007547034',
    'FR1420041010050500013M02606',
  ])('When the IBAN is %s, then it can be debited', (iban) => {
    expect(ibanProblem(iban)).toBeUndefined();
  });

  test.each([
    ['NL13TEST0123456788', 'check digits'],
    ['DE87123456781234567891', 'check digits'],
    ['NL13TEST01234567', 'has 18 characters'],
    ['US64SVBKUS6S3300958879', 'not a SEPA country'],
    ['1234', 'letters and digits'],
    ['NL13-TEST-0123', 'letters and digits'],
  ])('When the IBAN is %s, then it is refused (%s)', (iban, why) => {
    expect(ibanProblem(iban)).toContain(why);
  });

  test('When an IBAN is masked, then only its country, check digits and last four remain', () => {
    expect(maskIban('NL13 TEST 0123 4567 89')).toBe('NL13**********6789');
  });
});
