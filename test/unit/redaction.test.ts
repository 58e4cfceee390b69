import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { maskCardNumbers, mayHoldSecrets, REDACTED, redactJson, redactQuery, SECRET_FIELDS } from '../../server/kernel/redaction.js';
import { recordOf } from '../../server/kernel/http/request-recording.js';

/** A card payment as an integration sends it with raw card data. */
const rawCardPayment = {
  merchantAccount: 'DemoMerchantECOM',
  reference: 'order 4111 1111 1111 1111 for John',
  amount: { currency: 'EUR', value: 1000 },
  paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' },
  shopperStatement: 'card 5555-3412-4444-1115',
  returnUrl: 'https://shop.example.com/return',
};

/** What Adyen Web posts: the encrypted card fields. */
const encryptedPayment = {
  merchantAccount: 'DemoMerchantECOM',
  reference: 'order-2',
  amount: { currency: 'EUR', value: 1000 },
  paymentMethod: {
    type: 'scheme',
    encryptedCardNumber: 'test_4111111111111111',
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    encryptedSecurityCode: 'test_737',
  },
};

/** A webhook set up with basic authentication, and the answer to generating its HMAC key. */
const webhookSetUp = {
  type: 'standard',
  url: 'https://receiver.example.com/hook',
  username: 'hook-user',
  password: 'hook-secret-1',
  active: true,
  communicationFormat: 'json',
};
const hmacAnswer = { hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };

/** A new API credential as management answers it: the key and password shown once. */
const credentialAnswer = {
  id: 'S2-6A6C2E3D4C6F',
  username: 'ws_123456@Company.DemoCompany',
  apiKey:
    'AQEyhmfxK4zJbBZDw0m/n3Q5qf3VaY9UCJ14XWZE03G/k2NFitRvbe4N1XqH1eHaH2AksaEQjsEQwV1bDb7kfNy1WIxIIkxgBw==-dNcy9QCDc5gX5Uu1p7vcrVUGWiwb5tzwmhv6OfSr8Ho=-:4MKQ3fQ6V(t(,rWt',
  password: 'Z7nq_8Lk3M2xVw',
  clientKey: 'test_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
  roles: ['Checkout webservice role'],
  active: true,
};

/** The action of a 3D Secure 2 step and a session: what only their holder may use. */
const actionAnswer = {
  resultCode: 'IdentifyShopper',
  action: { type: 'threeDS2', paymentData: 'Ab02b4c0!BQABAgA', token: 'eyJ0aHJlZURTTWV0aG9kVXJsIjoi' },
  sessionData: 'Ab02b4c0!sess',
};

describe('Redaction of stored bodies', () => {
  test('When a payment carries raw card data, then number, expiry and security code are replaced and the holder name stays', () => {
    const out = redactJson(rawCardPayment) as typeof rawCardPayment;
    expect(out.paymentMethod).toEqual({
      type: 'scheme',
      number: REDACTED,
      expiryMonth: REDACTED,
      expiryYear: REDACTED,
      cvc: REDACTED,
      holderName: 'John Smith',
    });
    expect(out.amount).toEqual({ currency: 'EUR', value: 1000 });
  });

  test('When a card number appears in free text, grouped by spaces or dashes, then only its last four digits remain', () => {
    const out = redactJson(rawCardPayment) as typeof rawCardPayment;
    expect(out.reference).toBe('order ************1111 for John');
    expect(out.shopperStatement).toBe('card ************1115');
    expect(JSON.stringify(out)).not.toMatch(/4111.?1111.?1111.?1111|5555.?3412.?4444.?1115/);
  });

  test('When digits do not pass the card check, then they are kept (references and amounts stay readable)', () => {
    expect(maskCardNumbers('order 1234567890123 at 20261115')).toBe('order 1234567890123 at 20261115');
  });

  test("When Adyen Web's encrypted card fields arrive, then every one is replaced", () => {
    const out = redactJson(encryptedPayment) as typeof encryptedPayment;
    expect(out.paymentMethod).toEqual({
      type: 'scheme',
      encryptedCardNumber: REDACTED,
      encryptedExpiryMonth: REDACTED,
      encryptedExpiryYear: REDACTED,
      encryptedSecurityCode: REDACTED,
    });
  });

  test('When a webhook is set up with a password and its HMAC key is generated, then neither is kept', () => {
    expect(redactJson(webhookSetUp)).toEqual({ ...webhookSetUp, password: REDACTED });
    expect(redactJson(hmacAnswer)).toEqual({ hmacKey: REDACTED });
  });

  test('When a credential is created, then its API key and password are replaced and its public client key stays', () => {
    expect(redactJson(credentialAnswer)).toEqual({ ...credentialAnswer, apiKey: REDACTED, password: REDACTED });
  });

  test('When an answer carries payment data and session data, then they are replaced', () => {
    expect(redactJson(actionAnswer)).toEqual({
      resultCode: 'IdentifyShopper',
      action: { type: 'threeDS2', paymentData: REDACTED, token: actionAnswer.action.token },
      sessionData: REDACTED,
    });
  });

  test('When a query string names a secret or holds a card number, then those values are replaced', () => {
    expect(redactQuery('apiKey=AQEabc&reference=4111111111111111&pageSize=10')).toBe('apiKey=%5BREDACTED%5D&reference=************1111&pageSize=10');
  });

  test('When a finished request becomes a log record, then its bodies are redacted and the payment is found in the answer', () => {
    const record = recordOf({
      companyId: 'DemoCompany',
      occurredAt: '2026-01-15T10:00:00.000Z',
      area: 'checkout',
      method: 'POST',
      path: '/payments',
      query: null,
      operationId: 'payments',
      status: 200,
      durationMs: 12,
      credentialId: 'S2-DEMOCOMPANY01',
      credentialUsername: 'ws@Company.DemoCompany',
      idempotencyKey: 'order-4111111111111111',
      requestId: 'ABCDEFGH00000001',
      pathParams: {},
      merchantAccount: null,
      requestBody: rawCardPayment,
      responseText: JSON.stringify({ pspReference: 'QFQTPCQ8HXSKGK82', resultCode: 'Authorised', additionalData: { cardSummary: '1111' } }),
    });
    expect(record).toMatchObject({ pspReference: 'QFQTPCQ8HXSKGK82', merchantAccount: 'DemoMerchantECOM', idempotencyKey: 'order-************1111' });
    const stored = `${record.requestBody} ${record.responseBody}`;
    for (const secret of ['4111111111111111', '"737"', '"03"', '2030']) expect(stored).not.toContain(secret);
  });

  test('When a modification is recorded, then it concerns the payment of its path, not its own pspReference', () => {
    const record = recordOf({
      companyId: 'DemoCompany',
      occurredAt: '2026-01-15T10:00:00.000Z',
      area: 'checkout',
      method: 'POST',
      path: '/payments/QFQTPCQ8HXSKGK82/captures',
      query: null,
      operationId: 'captureAuthorisedPayment',
      status: 201,
      durationMs: 5,
      credentialId: 'S2-DEMOCOMPANY01',
      credentialUsername: 'ws@Company.DemoCompany',
      idempotencyKey: null,
      requestId: 'ABCDEFGH00000002',
      pathParams: { paymentPspReference: 'QFQTPCQ8HXSKGK82' },
      merchantAccount: null,
      requestBody: { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 500 } },
      responseText: JSON.stringify({ pspReference: 'V4HZ4RBFJGXXGN82', paymentPspReference: 'QFQTPCQ8HXSKGK82', status: 'received' }),
    });
    expect(record.pspReference).toBe('QFQTPCQ8HXSKGK82');
  });
});

describe('The request log keeps a body without anything to redact as it is', () => {
  test('When a JSON text holds no secret field name and no long run of digits, then redacting it would not change it', () => {
    const keys = fc.oneof(fc.constantFrom(...SECRET_FIELDS, 'reference', 'amount', 'value', 'encryptedX'), fc.string({ maxLength: 12 }));
    const leaf = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^[0-9 -]{10,24}$/),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const body = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof({ depthSize: 'small', maxDepth: 6 }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(keys, tie('value'), { maxKeys: 5 })),
    })).value;
    fc.assert(
      fc.property(body, (value) => {
        const text = JSON.stringify(value) ?? 'null';
        if (!mayHoldSecrets(text)) expect(JSON.stringify(redactJson(JSON.parse(text)))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  test('When a body names any secret field or holds a card number, then it is walked', () => {
    for (const name of SECRET_FIELDS) expect(mayHoldSecrets(JSON.stringify({ nested: [{ [name]: 'x' }] }))).toBe(true);
    expect(mayHoldSecrets(JSON.stringify({ encryptedAnything: 'x' }))).toBe(true);
    expect(mayHoldSecrets(JSON.stringify(rawCardPayment))).toBe(true);
    expect(mayHoldSecrets(JSON.stringify({ reference: 'card 5555-3412-4444-1115' }))).toBe(true);
    expect(mayHoldSecrets(JSON.stringify({ reference: 'order-2', amount: { currency: 'EUR', value: 1000 } }))).toBe(false);
  });
});
