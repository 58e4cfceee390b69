import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adyenClient, CheckoutAPI, HttpClientException, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let checkout: InstanceType<typeof CheckoutAPI>;
let vault: Server;
let vaultUrl: string;

beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  checkout = new CheckoutAPI(adyenClient(COMPANY_KEY));
  vault = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => vault.listen(0, '127.0.0.1', resolve));
  vaultUrl = `http://127.0.0.1:${(vault.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.stop();
  await new Promise((resolve) => vault.close(resolve));
});

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
const idem = () => ({ idempotencyKey: crypto.randomUUID() });

async function pay(value = 1000, overrides: Record<string, unknown> = {}) {
  return checkout.PaymentsApi.payments(
    {
      amount: eur(value),
      reference: `sdk-${Date.now()}`,
      merchantAccount,
      returnUrl: 'https://shop.example.com/return',
      paymentMethod: card,
      ...overrides,
    } as never,
    idem(),
  );
}

describe('The Adyen Node library 31.0.0 against the checkout area over HTTPS', () => {
  test('When it pays, captures, refunds, updates, cancels and reverses, then every call succeeds', async () => {
    const payment = await pay(1000);
    expect(payment.resultCode).toBe('Authorised');
    const psp = payment.pspReference!;
    const update = await checkout.ModificationsApi.updateAuthorisedAmount(psp, { merchantAccount, amount: eur(1200), reference: 'upd' }, idem());
    expect(update.status).toBe('received');
    const capture = await checkout.ModificationsApi.captureAuthorisedPayment(psp, { merchantAccount, amount: eur(1200) }, idem());
    expect(capture).toMatchObject({ status: 'received', paymentPspReference: psp });
    const refund = await checkout.ModificationsApi.refundCapturedPayment(psp, { merchantAccount, amount: eur(200) }, idem());
    expect(refund.status).toBe('received');
    const reversal = await checkout.ModificationsApi.refundOrCancelPayment(psp, { merchantAccount }, idem());
    expect(reversal.status).toBe('received');
    const other = await pay(500);
    expect((await checkout.ModificationsApi.cancelAuthorisedPaymentByPspReference(other.pspReference!, { merchantAccount }, idem())).status).toBe('received');
    const third = await pay(500, { reference: 'sdk-cancel-by-reference' });
    expect(third.resultCode).toBe('Authorised');
    expect((await checkout.ModificationsApi.cancelAuthorisedPayment({ merchantAccount, paymentReference: 'sdk-cancel-by-reference' }, idem())).status).toBe(
      'received',
    );
  });

  test('When a rule is broken, then the library raises HttpClientException with our status and error code', async () => {
    const payment = await pay(1000);
    await expect(
      checkout.ModificationsApi.captureAuthorisedPayment(payment.pspReference!, { merchantAccount, amount: eur(5000) }, idem()),
    ).rejects.toMatchObject({
      statusCode: 422,
      errorCode: '22_002',
    });
    const error = await checkout.ModificationsApi.captureAuthorisedPayment('0000000000000000', { merchantAccount, amount: eur(1) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpClientException);
  });

  test('When it runs a 3D Secure payment, then payments/details finishes it', async () => {
    const started = await pay(4200, { paymentMethod: { ...card, encryptedCardNumber: 'test_4212345678910006' } });
    expect(started.resultCode).toBe('RedirectShopper');
    const complete = await fetch(`${(started.action as { url: string }).url}/complete?outcome=authorised`, { redirect: 'manual' });
    const redirectResult = new URL(complete.headers.get('location')!).searchParams.get('redirectResult')!;
    const finished = await checkout.PaymentsApi.paymentsDetails({ details: { redirectResult } }, idem());
    expect(finished.resultCode).toBe('Authorised');
  });

  test('When it uses orders, sessions, payment methods and card details, then each answers', async () => {
    const order = await checkout.OrdersApi.orders({ merchantAccount, reference: 'sdk-order', amount: eur(2000) }, idem());
    expect(order.remainingAmount).toEqual(eur(2000));
    const partial = await pay(500, { order: { pspReference: order.pspReference!, orderData: order.orderData } });
    expect(partial.order?.remainingAmount).toEqual(eur(1500));
    expect(
      (await checkout.OrdersApi.cancelOrder({ merchantAccount, order: { pspReference: order.pspReference!, orderData: order.orderData } }, idem())).resultCode,
    ).toBe('Received');

    const session = await checkout.PaymentsApi.sessions(
      { merchantAccount, amount: eur(1000), reference: 'sdk-session', returnUrl: 'https://shop.example.com/return' },
      idem(),
    );
    expect(session.id).toMatch(/^CS/);
    const paid = await fetch(`${server.checkoutUrl}/sessions/${session.id}/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
      body: JSON.stringify({ sessionData: session.sessionData, paymentMethod: card }),
    });
    const { sessionResult } = (await paid.json()) as { sessionResult: string };
    const result = await checkout.PaymentsApi.getResultOfPaymentSession(session.id, sessionResult);
    expect(result.status).toBe('completed');

    const methods = await checkout.PaymentsApi.paymentMethods({ merchantAccount, countryCode: 'NL', amount: eur(1000) }, idem());
    expect(methods.paymentMethods?.map((m) => m.type)).toContain('ideal');
    const details = await checkout.PaymentsApi.cardDetails({ merchantAccount, cardNumber: '411111' }, idem());
    expect(details.brands?.[0]).toMatchObject({ type: 'visa', supported: true });
  });

  test('When it stores, lists, forwards and deletes a token, then each answers', async () => {
    const token = await checkout.RecurringApi.storedPaymentMethods(
      { merchantAccount, shopperReference: 'sdk-shopper', recurringProcessingModel: 'CardOnFile' as never, paymentMethod: card },
      idem(),
    );
    expect(token.lastFour).toBe('1111');
    const list = await checkout.RecurringApi.getTokensForStoredPaymentDetails('sdk-shopper', merchantAccount);
    expect(list.storedPaymentMethods?.map((t) => t.id)).toEqual([token.id]);
    const forwarded = await checkout.RecurringApi.forward(
      {
        merchantAccount,
        shopperReference: 'sdk-shopper',
        storedPaymentMethodId: token.id!,
        baseUrl: vaultUrl,
        request: { httpMethod: 'post' as never, body: '{"pan":"{{number}}"}' },
      },
      idem(),
    );
    expect(forwarded.response.status).toBe(200);
    await checkout.RecurringApi.deleteTokenForStoredPaymentDetails(token.id!, 'sdk-shopper', merchantAccount);
    expect((await checkout.RecurringApi.getTokensForStoredPaymentDetails('sdk-shopper', merchantAccount)).storedPaymentMethods).toEqual([]);
  });

  test('When it uses donations, payment links, PayPal order updates and origin keys, then each answers', async () => {
    const campaigns = await checkout.DonationsApi.donationCampaigns({ merchantAccount, currency: 'EUR' }, idem());
    expect(campaigns.donationCampaigns?.length).toBe(2);

    const link = await checkout.PaymentLinksApi.paymentLinks({ merchantAccount, reference: 'sdk-link', amount: eur(4200) }, idem());
    expect(link.status).toBe('active');
    expect((await checkout.PaymentLinksApi.getPaymentLink(link.id)).id).toBe(link.id);
    expect((await checkout.PaymentLinksApi.updatePaymentLink(link.id, { status: 'expired' as never })).status).toBe('expired');

    const paypal = await pay(1000, { paymentMethod: { type: 'paypal', subtype: 'express' } });
    const updated = await checkout.UtilityApi.updatesOrderForPaypalExpressCheckout(
      { pspReference: paypal.pspReference!, paymentData: (paypal.action as { paymentData: string }).paymentData, amount: eur(1500) },
      idem(),
    );
    expect(updated.status).toBe('success');

    const keys = await checkout.UtilityApi.originKeys({ originDomains: ['https://www.example.com'] }, idem());
    expect(keys.originKeys?.['https://www.example.com']).toMatch(/^pub\.v2\./);
  });
});
