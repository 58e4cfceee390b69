import { describe, expect, test } from '@jest/globals';
import { detectBrands, isExpired, passesLuhn, readCard } from '../../server/checkout/payments/cards.js';

describe('passesLuhn', () => {
  test.each([
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['5555555555554444', true],
    ['370000000000002', true],
    ['0', true],
    ['', false],
  ])('When the number is %s, then the Luhn check says %s', (digits, ok) => {
    expect(passesLuhn(digits)).toBe(ok);
  });
});

describe('detectBrands', () => {
  test.each([
    ['4111111111111111', 'visa'],
    ['5500000000000004', 'mc'],
    ['2222400070000005', 'mc'],
    ['370000000000002', 'amex'],
    ['36006666333344', 'diners'],
    ['6011601160116611', 'discover'],
    ['3569990010095841', 'jcb'],
    ['6243030000000001', 'cup'],
    ['6771830000000000006', 'maestro'],
    ['6703444444444449', 'bcmc'],
    ['5019000000000000', 'dankort'],
  ])('When the number is %s, then the best brand is %s', (digits, brand) => {
    expect(detectBrands(digits)[0]).toBe(brand);
  });

  test('When only six digits are known, then brands are found without a length check', () => {
    expect(detectBrands('411111', false)).toContain('visa');
    expect(detectBrands('411111')).toEqual([]);
  });
});

describe('isExpired', () => {
  test('When the clock is in the expiry month, then the card is still valid; the next month it is expired', () => {
    expect(isExpired({ expiryMonth: 3, expiryYear: 2030 }, new Date('2030-03-31T23:59:59Z'))).toBe(false);
    expect(isExpired({ expiryMonth: 3, expiryYear: 2030 }, new Date('2030-04-01T00:00:00Z'))).toBe(true);
    expect(isExpired({ expiryMonth: 12, expiryYear: 2030 }, new Date('2031-01-01T00:00:00Z'))).toBe(true);
  });
});

describe('readCard', () => {
  test('When the dual-branded card is paid with the brand the shopper chose, then that brand is used', () => {
    expect(readCard({ number: '4035501000000008', expiryMonth: '3', expiryYear: '2030', brand: 'visa' }).brand).toBe('visa');
  });

  test('When the number has spaces, then they are ignored', () => {
    expect(readCard({ number: '4111 1111 1111 1111', expiryMonth: '03', expiryYear: '2030' }).number).toBe('4111111111111111');
  });
});
