/**
 * Adyen's values for testing refusal reasons (docs/sandbox-test-data.md, "Adyen's test values for
 * refusal reasons"), paid with the official Adyen Node library over HTTPS: every row by its
 * holder name and by its RequestedTestAcquirerResponseCode, and a few rows as a Bancontact card, a
 * stored card and a wallet test token. The expected rows are written out here, apart from the
 * server's table (server/checkout/payments/test-results.ts), so a changed row there fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { TEST_RESULTS } from '../../../server/checkout/payments/test-results.js';
import { testWalletToken } from '../../../server/checkout/payments/wallet-tokens.js';
import { adyenClient, CheckoutAPI, pointAdyenLibraryAt } from '../../helpers/adyen-library.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { advanceClock, storedPayment } from '../../helpers/methods.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let checkout: InstanceType<typeof CheckoutAPI>;

beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  checkout = new CheckoutAPI(adyenClient(COMPANY_KEY));
});
afterAll(() => server.stop());

type ResultCode = 'Authorised' | 'Refused' | 'Error' | 'Received' | 'Cancelled';
interface Row {
  holderName: string;
  code: number;
  resultCode: ResultCode;
  refusalReason?: string;
}

const failed = (code: number, holderName: string, refusalReason: string, resultCode: ResultCode = 'Refused'): Row => ({
  code,
  holderName,
  resultCode,
  refusalReason,
});

/** Adyen's table: the holder name, the code, and what the payment answers. */
const DOCUMENTED: readonly Row[] = [
  failed(0, 'UNKNOWN', 'Unknown', 'Error'),
  { code: 1, holderName: 'APPROVED', resultCode: 'Authorised' },
  failed(2, 'DECLINED', 'Refused'),
  failed(3, 'REFERRAL', 'Referral'),
  failed(4, 'ERROR', 'Acquirer Error', 'Error'),
  failed(5, 'BLOCK_CARD', 'Blocked Card'),
  failed(6, 'CARD_EXPIRED', 'Expired Card'),
  failed(7, 'INVALID_AMOUNT', 'Invalid Amount'),
  failed(8, 'INVALID_CARD_NUMBER', 'Invalid Card Number'),
  failed(9, 'ISSUER_UNAVAILABLE', 'Issuer Unavailable'),
  failed(10, 'NOT_SUPPORTED', 'Not supported'),
  failed(11, 'NOT_3D_AUTHENTICATED', '3D Not Authenticated'),
  failed(12, 'NOT_ENOUGH_BALANCE', 'Not enough balance'),
  { code: 13, holderName: 'PENDING', resultCode: 'Received' },
  failed(14, 'ACQUIRER_FRAUD', 'Acquirer Fraud'),
  failed(15, 'CANCELLED', 'Cancelled'),
  failed(16, 'SHOPPER_CANCELLED', 'Shopper Cancelled'),
  failed(17, 'INVALID_PIN', 'Invalid Pin'),
  failed(18, 'PIN_TRIES_EXCEEDED', 'Pin tries exceeded'),
  failed(19, 'PIN_VALIDATION_NOT_POSSIBLE', 'Pin validation not possible'),
  failed(20, 'FRAUD', 'FRAUD'),
  failed(21, 'NOT_SUBMITTED', 'Not Submitted'),
  failed(22, 'FRAUD_CANCELLED', 'FRAUD-CANCELLED', 'Cancelled'),
  failed(23, 'TRANSACTION_NOT_PERMITTED', 'Transaction Not Permitted'),
  failed(24, 'CVC_DECLINED', 'CVC Declined'),
  failed(25, 'RESTRICTED_CARD', 'Restricted Card'),
  failed(26, 'REVOCATION_OF_AUTH', 'Revocation Of Auth'),
  failed(27, 'DECLINED_NON_GENERIC', 'Declined Non Generic'),
  failed(28, 'WITHDRAWAL_AMOUNT_EXCEEDED', 'Withdrawal amount exceeded'),
  failed(29, 'WITHDRAWAL_COUNT_EXCEEDED', 'Withdrawal count exceeded'),
  failed(31, 'ISSUER_SUSPECTED_FRAUD', 'Issuer Suspected Fraud'),
  failed(32, 'AVS_DECLINED', 'AVS Declined'),
  failed(33, 'PIN_REQUIRED', 'Card requires online pin'),
  failed(34, 'NO_CHECKING_ACCOUNT_AVAILABLE_ON_CARD', 'No checking account available on Card'),
  failed(35, 'NO_SAVINGS_ACCOUNT_AVAILABLE_ON_CARD', 'No savings account available on Card'),
  failed(36, 'MOBILE_PIN_REQUIRED', 'Mobile PIN required'),
  failed(37, 'CONTACTLESS_FALLBACK', 'Contactless fallback'),
  failed(38, 'AUTHENTICATION_REQUIRED', 'Authentication required'),
  failed(39, 'RREQ_NOT_RECEIVED', 'RReq not received from DS'),
  failed(40, 'BAN_CURRENT_AID', 'Current AID is in Penalty Box.'),
  failed(41, 'CVM_REQUIRED', 'CVM Required Restart Payment'),
  failed(42, 'THREED_SECURE_ERROR', '3DS Authentication Error'),
  failed(43, 'ONLINE_PIN_REQUIRED', 'Online PIN required'),
  failed(44, 'TRY_ANOTHER_INTERFACE', 'Try another interface'),
  failed(45, 'CHIP_DOWNGRADE_MODE', 'Chip downgrade mode'),
  failed(46, 'ERPS_BLOCK', 'Transaction blocked by Adyen to prevent excessive retry fees'),
];

/** Further holder names that ask for a row: this sandbox's older REFUSED, and the other spelling of rows 34 and 35. */
const ALIASES: ReadonlyArray<[alias: string, holderName: string]> = [
  ['REFUSED', 'DECLINED'],
  ['NO_CHECKING_ACCOUNT', 'NO_CHECKING_ACCOUNT_AVAILABLE_ON_CARD'],
  ['NO_SAVINGS_ACCOUNT', 'NO_SAVINGS_ACCOUNT_AVAILABLE_ON_CARD'],
];

const merchantAccount = 'DemoMerchantECOM';
const eur = (value: number) => ({ currency: 'EUR', value });
const idem = () => ({ idempotencyKey: crypto.randomUUID() });
let counter = 0;

const card = (holderName = 'John Smith') => ({
  type: 'scheme',
  encryptedCardNumber: 'test_4111111111111111',
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
  holderName,
});

/** POST /payments through the Adyen library; `overrides` replace fields of a card payment of EUR 10.00. */
function pay(overrides: Record<string, unknown>) {
  return checkout.PaymentsApi.payments(
    {
      amount: eur(1000),
      reference: `refusal-${process.pid}-${++counter}`,
      merchantAccount,
      returnUrl: 'https://shop.example.com/return',
      paymentMethod: card(),
      ...overrides,
    } as never,
    idem(),
  );
}

/** The AUTHORISATION events recorded for a payment, as the webhook would carry them. */
async function authorisations(pspReference: string) {
  const events = await server.store.read((tx) => tx.outbox.listEvents(merchantAccount, 0, 100_000));
  return events
    .filter((e) => e.pspReference === pspReference && e.eventCode === 'AUTHORISATION')
    .map((e) => ({ success: e.success, reason: e.reason, additionalData: e.additionalData }));
}

/** Asserts what the payment answered and the AUTHORISATION event it recorded, for a row. */
async function expectRow(payment: Awaited<ReturnType<typeof pay>>, row: Row): Promise<void> {
  expect({ resultCode: payment.resultCode, refusalReason: payment.refusalReason, refusalReasonCode: payment.refusalReasonCode }).toEqual({
    resultCode: row.resultCode,
    refusalReason: row.refusalReason,
    refusalReasonCode: row.refusalReason === undefined ? undefined : String(row.code),
  });
  const events = await authorisations(payment.pspReference!);
  if (row.resultCode === 'Received') expect(events).toEqual([]);
  else if (row.resultCode === 'Authorised') expect(events).toEqual([expect.objectContaining({ success: true })]);
  else expect(events).toEqual([expect.objectContaining({ success: false, reason: row.refusalReason })]);
}

const titled = (row: Row) => `${row.holderName} (${row.code}) answers ${row.resultCode}${row.refusalReason ? ` "${row.refusalReason}"` : ''}`;

describe('POST /payments with Adyen test values', () => {
  test('When the server table is compared with the documented rows, then it has every row and no other', () => {
    const table = TEST_RESULTS.map((r) => ({
      code: r.code,
      holderName: r.holderName,
      resultCode: r.resultCode,
      ...(r.refusalReason !== null && { refusalReason: r.refusalReason }),
    }));
    expect(table).toEqual(DOCUMENTED);
    expect(TEST_RESULTS.flatMap((r) => (r.aliases ?? []).map((alias) => [alias, r.holderName]))).toEqual(ALIASES);
  });

  test.each(DOCUMENTED.map((row) => [titled(row), row] as const))('When the holder name is %s, then the payment and its event say so', async (_, row) => {
    await expectRow(await pay({ paymentMethod: card(row.holderName) }), row);
  });

  // The code as Adyen's documentation sends it (a number) for even codes, as the library types it (a string) for odd ones.
  test.each(DOCUMENTED.map((row) => [titled(row), row] as const))(
    'When RequestedTestAcquirerResponseCode asks for %s, then the payment and its event say so',
    async (_, row) => {
      const code = row.code % 2 === 0 ? row.code : String(row.code);
      await expectRow(await pay({ additionalData: { RequestedTestAcquirerResponseCode: code } }), row);
    },
  );

  test.each(ALIASES)('When the holder name is %s, then the payment answers as %s', async (alias, holderName) => {
    await expectRow(
      await pay({ paymentMethod: card(alias) }),
      DOCUMENTED.find((r) => r.holderName === holderName)!,
    );
  });

  test('When the code is unknown or not a code, then the payment is authorised as without it', async () => {
    for (const code of ['30', '99', 'NOT_A_CODE', '']) {
      const payment = await pay({ additionalData: { RequestedTestAcquirerResponseCode: code } });
      expect(payment).toMatchObject({ resultCode: 'Authorised' });
      expect(payment.refusalReason).toBeUndefined();
    }
  });

  test('When both a code and a refusing holder name are sent, then the code wins', async () => {
    const approved = await pay({ paymentMethod: card('DECLINED'), additionalData: { RequestedTestAcquirerResponseCode: '1' } });
    expect(approved.resultCode).toBe('Authorised');
    const blocked = await pay({ paymentMethod: card('DECLINED'), additionalData: { RequestedTestAcquirerResponseCode: '5' } });
    expect(blocked).toMatchObject({ resultCode: 'Refused', refusalReason: 'Blocked Card', refusalReasonCode: '5' });
  });

  test("When the code is a row's name, then that row answers, as Adyen's older result-code page allows", async () => {
    const payment = await pay({ additionalData: { RequestedTestAcquirerResponseCode: 'CARD_EXPIRED' } });
    expect(payment).toMatchObject({ resultCode: 'Refused', refusalReason: 'Expired Card', refusalReasonCode: '6' });
  });

  test('When the holder name adds a raw acquirer response, then the row answers and refusalReasonRaw is that response', async () => {
    const payment = await pay({ paymentMethod: card('DECLINED : 05 : Do not honor') });
    expect(payment).toMatchObject({ resultCode: 'Refused', refusalReason: 'Refused', refusalReasonCode: '2' });
    expect(payment.additionalData?.refusalReasonRaw).toBe('05 : Do not honor');
    const plain = await pay({ paymentMethod: card('DECLINED') });
    expect(plain.additionalData?.refusalReasonRaw).toBe('Refused');
  });

  test('When a challenge card asks for a refusal, then it is refused at once, without 3D Secure', async () => {
    const payment = await pay({ paymentMethod: { ...card('CVC_DECLINED'), encryptedCardNumber: 'test_4212345678910006' } });
    expect(payment).toMatchObject({ resultCode: 'Refused', refusalReason: 'CVC Declined', refusalReasonCode: '24' });
    expect(payment.action).toBeUndefined();
  });
});

describe('Adyen test values through other card-based methods', () => {
  const bcmc = (holderName: string) => ({
    type: 'bcmc',
    encryptedCardNumber: 'test_6703444444444449',
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    holderName,
  });

  test('When a Bancontact card asks for ERROR or FRAUD_CANCELLED, then it answers Error or Cancelled without authentication', async () => {
    const error = await pay({ paymentMethod: bcmc('ERROR') });
    expect(error).toMatchObject({ resultCode: 'Error', refusalReason: 'Acquirer Error', refusalReasonCode: '4' });
    expect(error.action).toBeUndefined();
    expect(await authorisations(error.pspReference!)).toEqual([expect.objectContaining({ success: false, reason: 'Acquirer Error' })]);
    const cancelled = await pay({ paymentMethod: bcmc('Jan Peeters'), additionalData: { RequestedTestAcquirerResponseCode: '22' } });
    expect(cancelled).toMatchObject({ resultCode: 'Cancelled', refusalReason: 'FRAUD-CANCELLED', refusalReasonCode: '22' });
    expect(await authorisations(cancelled.pspReference!)).toEqual([expect.objectContaining({ success: false, reason: 'FRAUD-CANCELLED' })]);
  });

  test('When a stored card is paid with a code or was stored with a test holder name, then that row answers', async () => {
    const shopperReference = `refusal-shopper-${process.pid}`;
    const store = (holderName: string) =>
      checkout.RecurringApi.storedPaymentMethods(
        { merchantAccount, shopperReference, recurringProcessingModel: 'CardOnFile' as never, paymentMethod: card(holderName) },
        idem(),
      );
    const plain = await store('John Smith');
    const byCode = await pay({
      paymentMethod: { type: 'scheme', storedPaymentMethodId: plain.id },
      shopperReference,
      additionalData: { RequestedTestAcquirerResponseCode: 12 },
    });
    expect(byCode).toMatchObject({ resultCode: 'Refused', refusalReason: 'Not enough balance', refusalReasonCode: '12' });
    expect(await authorisations(byCode.pspReference!)).toEqual([
      expect.objectContaining({
        success: false,
        reason: 'Not enough balance',
        additionalData: expect.objectContaining({ 'tokenization.storedPaymentMethodId': plain.id }),
      }),
    ]);
    const unknown = await store('UNKNOWN');
    const byName = await pay({ paymentMethod: { type: 'scheme', storedPaymentMethodId: unknown.id }, shopperReference });
    expect(byName).toMatchObject({ resultCode: 'Error', refusalReason: 'Unknown', refusalReasonCode: '0' });
  });

  test('When a wallet test token names a test holder or the request a code, then that row answers', async () => {
    const googlePayToken = testWalletToken({ number: '5555555555554444', expiryMonth: '03', expiryYear: '2030', holderName: 'CARD_EXPIRED' });
    const expired = await pay({ paymentMethod: { type: 'googlepay', googlePayToken } });
    expect(expired).toMatchObject({ resultCode: 'Refused', refusalReason: 'Expired Card', refusalReasonCode: '6' });
    expect(await authorisations(expired.pspReference!)).toEqual([
      expect.objectContaining({ success: false, reason: 'Expired Card', additionalData: expect.objectContaining({ paymentMethodVariant: 'mc_googlepay' }) }),
    ]);
    const applePayToken = testWalletToken({ number: '4111111111111111' });
    const fraud = await pay({ paymentMethod: { type: 'applepay', applePayToken }, additionalData: { RequestedTestAcquirerResponseCode: '20' } });
    expect(fraud).toMatchObject({ resultCode: 'Refused', refusalReason: 'FRAUD', refusalReasonCode: '20' });
  });

  // Last in the file: it moves the sandbox clock.
  test('When PENDING is Received, then ten minutes later on the sandbox clock it is authorised and AUTHORISATION reports success', async () => {
    const byName = await pay({ paymentMethod: card('PENDING') });
    const wallet = await pay({
      paymentMethod: { type: 'applepay', applePayToken: testWalletToken({ number: '4111111111111111' }) },
      additionalData: { RequestedTestAcquirerResponseCode: 13 },
    });
    for (const payment of [byName, wallet]) expect(payment.resultCode).toBe('Received');
    await advanceClock(server, 9 * 60);
    expect(await authorisations(byName.pspReference!)).toEqual([]);
    await advanceClock(server, 60);
    for (const payment of [byName, wallet]) {
      expect((await storedPayment(server, payment.pspReference!))?.resultCode).toBe('Authorised');
      expect(await authorisations(payment.pspReference!)).toEqual([expect.objectContaining({ success: true })]);
    }
  });
});
