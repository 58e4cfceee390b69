import { describe, expect, test } from '@jest/globals';
import { cardOfWalletToken, testWalletToken } from '../../server/checkout/payments/wallet-tokens.js';

describe('Wallet test tokens', () => {
  test('When a test token names a card, then that card pays (base64 or plain JSON)', () => {
    const card = { number: '5555555555554444', expiryMonth: '04', expiryYear: '2031', holderName: 'REFUSED' };
    expect(cardOfWalletToken(testWalletToken(card))).toEqual(card);
    expect(cardOfWalletToken(JSON.stringify({ number: '370000000000002' }))).toEqual({ number: '370000000000002', expiryMonth: '03', expiryYear: '2030' });
  });

  test.each([
    [undefined, '4111111111111111'],
    ['VISA', '4111111111111111'],
    ['MASTERCARD', '5555555555554444'],
    ['amex', '370000000000002'],
    ['UNKNOWN', '4111111111111111'],
  ])('When a real-looking token comes with network %s, then the default test card %s pays', (network, number) => {
    const real = Buffer.from(JSON.stringify({ version: 'EC_v1', data: 'abc', signature: 'def' })).toString('base64');
    expect(cardOfWalletToken(real, network).number).toBe(number);
    expect(cardOfWalletToken('opaque-token-that-is-not-json', network).number).toBe(number);
  });
});
