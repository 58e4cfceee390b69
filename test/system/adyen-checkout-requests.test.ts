/**
 * The official Adyen Node library 31.0.0, as an integrator uses it, against the operations and
 * request fields this service added to reach Adyen's full v71 checkout requests: bodies with the
 * fields real integrations send, donations, Apple Pay sessions, shopper identifier validation
 * and the sessions flow of the PayPal order update.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { adyenClient, CheckoutAPI, HttpClientException, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let checkout: InstanceType<typeof CheckoutAPI>;

beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  checkout = new CheckoutAPI(adyenClient(COMPANY_KEY));
});
afterAll(() => server.stop());

const card = {
  type: 'scheme',
  encryptedCardNumber: 'test_4111111111111111',
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
  holderName: 'John Smith',
} as const;
const eur = (value: number) => ({ currency: 'EUR', value });
const merchantAccount = 'DemoMerchantECOM';
const returnUrl = 'https://shop.example.com/return';
const idem = () => ({ idempotencyKey: crypto.randomUUID() });
let counter = 0;
const reference = (prefix: string) => `sdk-${prefix}-${++counter}`;

describe('The Adyen Node library 31.0.0 with full checkout requests', () => {
  test('When it sends a payment with the fields this service used to refuse, then the payment is authorised', async () => {
    const payment = await checkout.PaymentsApi.payments(
      {
        amount: eur(1000),
        reference: reference('full'),
        merchantAccount,
        returnUrl,
        paymentMethod: card,
        installments: { value: 3, plan: 'regular' },
        mcc: '5411',
        merchantRiskIndicator: { deliveryAddressIndicator: 'shipToBillingAddress', reorderItems: false, deliveryEmailAddress: 'shopper@example.com' },
        enableRecurring: true,
        recurringExpiry: '2030-12-31',
        recurringFrequency: '30',
        mandate: { amount: '1000', endsAt: '2030-12-31', frequency: 'monthly', amountRule: 'max' },
        company: { name: 'Example BV', registrationNumber: '12345678' },
        bankAccount: { iban: 'NL13TEST0123456789', ownerName: 'A. Shopper', countryCode: 'NL' },
        // The library sends Dates as full ISO 8601 date-times (deliveryDate, dateOfBirth).
        deliveryDate: new Date('2030-06-01T10:00:00Z'),
        dateOfBirth: new Date('1990-01-31T00:00:00Z'),
        surcharge: { value: 50 },
        shopperTaxInfo: { taxCountryCode: 'IN', taxIdentificationNumber: 'AAAPL1234C' },
        redirectToIssuerMethod: 'GET',
        redirectFromIssuerMethod: 'GET',
        telephoneNumber: '0612345678',
      } as never,
      idem(),
    );
    expect(payment.resultCode).toBe('Authorised');
  });

  test('When it creates a session with the fields this service used to refuse, then the session answers them back', async () => {
    const session = await checkout.PaymentsApi.sessions(
      {
        amount: eur(1000),
        reference: reference('session'),
        merchantAccount,
        returnUrl,
        authenticationData: { attemptAuthentication: 'always', threeDSRequestData: { nativeThreeDS: 'preferred' } },
        threeDS2RequestData: { threeDSRequestorChallengeInd: '01', homePhone: { cc: '31', subscriber: '201234567' } },
        riskData: { clientData: 'client-data', customFields: { loyalty: 'gold' } },
        dateOfBirth: '1990-01-31',
        storePaymentMethod: true,
        shopperReference: 'sdk-session-shopper',
        installmentOptions: { card: { values: [1, 2, 3], plans: ['regular'] } },
        additionalData: { 'riskdata.basket.item1.sku': 'sku-1' },
        telephoneNumber: '+31612345678',
      } as never,
      idem(),
    );
    expect(session.id).toMatch(/^CS/);
    expect(session).toMatchObject({
      storePaymentMethod: true,
      riskData: { clientData: 'client-data' },
      installmentOptions: { card: { values: [1, 2, 3] } },
      telephoneNumber: '+31612345678',
    });
  });

  test('When it donates with the donation token of a payment, then the donation is completed', async () => {
    const payment = await checkout.PaymentsApi.payments(
      { amount: eur(2500), reference: reference('order'), merchantAccount, returnUrl, paymentMethod: card } as never,
      idem(),
    );
    expect(payment.donationToken).toEqual(expect.any(String));
    const donation = await checkout.DonationsApi.donations(
      {
        amount: eur(500),
        reference: reference('donation'),
        merchantAccount,
        returnUrl,
        donationCampaignId: 'DONATION_CAMPAIGN_OCEAN',
        donationOriginalPspReference: payment.pspReference!,
        donationToken: payment.donationToken!,
        paymentMethod: { type: 'scheme' },
        shopperInteraction: 'ContAuth' as never,
      } as never,
      idem(),
    );
    expect(donation).toMatchObject({ status: 'completed', donationAccount: 'OCEAN_CLEANUP_FUND', payment: { resultCode: 'Authorised' } });
    await expect(
      checkout.DonationsApi.donations(
        {
          amount: eur(500),
          reference: reference('donation'),
          merchantAccount,
          returnUrl,
          donationCampaignId: 'DONATION_CAMPAIGN_OCEAN',
          donationOriginalPspReference: payment.pspReference!,
          donationToken: payment.donationToken!,
        },
        idem(),
      ),
    ).rejects.toMatchObject({ statusCode: 422, errorCode: '23_004' });
  });

  test('When it donates a round-up with a stored card, then the donation is completed', async () => {
    const token = await checkout.RecurringApi.storedPaymentMethods(
      { merchantAccount, shopperReference: 'sdk-donor', recurringProcessingModel: 'CardOnFile' as never, paymentMethod: card },
      idem(),
    );
    const donation = await checkout.DonationsApi.donations(
      {
        amount: eur(42),
        reference: reference('roundup'),
        merchantAccount,
        returnUrl,
        donationCampaignId: 'DONATION_CAMPAIGN_SCHOOLS',
        paymentMethod: { type: 'scheme', storedPaymentMethodId: token.id! },
        shopperReference: 'sdk-donor',
        recurringProcessingModel: 'CardOnFile',
      } as never,
      idem(),
    );
    expect(donation).toMatchObject({ status: 'completed', amount: eur(42), donationAccount: 'SCHOOLS_FOR_ALL' });
  });

  test('When it asks for an Apple Pay session, then the data is a base64 merchant session for the domain', async () => {
    const { data } = await checkout.UtilityApi.getApplePaySession(
      { displayName: 'Demo Shop', domainName: 'shop.example.com', merchantIdentifier: 'merchant.DemoMerchantECOM' },
      idem(),
    );
    expect(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))).toMatchObject({ domainName: 'shop.example.com', displayName: 'Demo Shop', retries: 0 });
    await expect(
      checkout.UtilityApi.getApplePaySession({ displayName: 'Demo Shop', domainName: 'evil.example.net', merchantIdentifier: 'merchant.DemoMerchantECOM' }),
    ).rejects.toMatchObject({ statusCode: 422, errorCode: '23_011' });
  });

  test('When it validates shopper identifiers, then it reads the result, and a refusal as an exception with the problem’s code', async () => {
    const valid = await checkout.UtilityApi.validateShopperId({
      merchantAccount,
      paymentMethod: { type: 'upi_collect', virtualPaymentAddress: 'asha.k@okbank' } as never,
    });
    expect(valid.result).toBe('VALID');
    const payTo = await checkout.UtilityApi.validateShopperId({ merchantAccount, paymentMethod: { type: 'payTo', shopperReference: 'sdk-payer' } as never });
    expect(payTo.result).toBe('NOT_REQUIRED');
    const refused = await checkout.UtilityApi.validateShopperId({ merchantAccount: 'NoSuchMerchant', paymentMethod: { type: 'payTo' } }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(HttpClientException);
    expect(refused).toMatchObject({ statusCode: 403, errorCode: '901' });
  });

  test('When the sessions flow updates a PayPal order with sessionId and paymentData, then the order is updated', async () => {
    const session = await checkout.PaymentsApi.sessions({ merchantAccount, amount: eur(1000), reference: reference('paypal-session'), returnUrl }, idem());
    const paypal = await checkout.PaymentsApi.payments(
      { amount: eur(1000), reference: reference('paypal'), merchantAccount, returnUrl, paymentMethod: { type: 'paypal', subtype: 'express' } } as never,
      idem(),
    );
    // This service's session payments take cards only: the PayPal payment is made the session's in the store, as Drop-in's sessions flow would leave it.
    await server.store.transaction(async (tx) => {
      const payment = await tx.payments.getForUpdate(paypal.pspReference!);
      await tx.payments.update({ ...payment!, sessionId: session.id });
    });
    const updated = await checkout.UtilityApi.updatesOrderForPaypalExpressCheckout(
      {
        sessionId: session.id,
        paymentData: (paypal.action as { paymentData: string }).paymentData,
        amount: eur(1500),
        deliveryMethods: [
          { reference: '1', description: 'Standard', type: 'Shipping' as never, amount: eur(0), selected: false },
          { reference: '2', description: 'Express', type: 'Shipping' as never, amount: eur(500), selected: true },
        ],
      },
      idem(),
    );
    expect(updated.status).toBe('success');
    const finished = await checkout.PaymentsApi.paymentsDetails({ paymentData: updated.paymentData, details: { orderID: 'O-1', payerID: 'P-1' } }, idem());
    expect(finished).toMatchObject({ resultCode: 'Authorised', amount: eur(1500) });
  });
});
