/**
 * Every payment method, driven end to end through the official Adyen Node library 31 exactly as
 * an integrator's server would: /paymentMethods, /payments, the action (a hosted page followed
 * over HTTP, or the threeDSResult adyen-web builds), /payments/details, captures and refunds
 * where the method allows them, and the webhook events at a receiver, every one of them signed
 * (HMAC). Methods are enabled through the Management API, as a merchant would in the Customer Area.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { adyenClient, CheckoutAPI, hmacValidator, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let checkout: InstanceType<typeof CheckoutAPI>;
let receiver: Receiver;
let hmacKey: string;

const merchantAccount = 'DemoMerchantECOM';
const returnUrl = 'https://shop.example.com/checkout/return';
const idem = () => ({ idempotencyKey: crypto.randomUUID() });
const eur = (value: number) => ({ currency: 'EUR', value });
let counter = 0;
const reference = (method: string) => `${method}-${Date.now()}-${++counter}`;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, string>;

beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  checkout = new CheckoutAPI(adyenClient(COMPANY_KEY));
  receiver = await new Receiver().start();
  const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId: merchantAccount } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  const key = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', {
    params: { path: { merchantId: merchantAccount, webhookId: data!.id } },
  });
  hmacKey = key.data!.hmacKey;
});
afterAll(async () => {
  await receiver.stop();
  await server.stop();
});

/** Adds a payment method setting to the demo merchant account (as the Customer Area would). */
async function setUpMethod(body: Record<string, unknown>): Promise<void> {
  const { response } = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', {
    params: { path: { merchantId: merchantAccount } },
    body: body as never,
  });
  expect(response.status).toBe(200);
}

/**
 * The events of a payment (its own and its modifications'), after delivery. Every event the
 * receiver has got so far, of any payment, must carry a valid HMAC signature.
 */
async function eventsOf(pspReference: string): Promise<string[]> {
  await server.dispatcher.drain();
  const all = receiver.items();
  expect(all.filter((item) => !new hmacValidator().validateHMAC(item as never, hmacKey))).toEqual([]);
  const items = all.filter((i) => i.pspReference === pspReference || i.originalReference === pspReference);
  return items.map((i) => `${i.eventCode}:${i.success}`);
}

/** What /paymentMethods offers now, by type (gift cards as giftcard/<brand>). */
async function offered(query: Record<string, unknown> = {}): Promise<Map<string, Record<string, unknown>>> {
  const { paymentMethods } = await checkout.PaymentsApi.paymentMethods({ merchantAccount, ...query }, idem());
  return new Map((paymentMethods ?? []).map((m) => [m.type === 'giftcard' ? `giftcard/${m.brand}` : m.type!, m as Record<string, unknown>]));
}

const pay = (body: Record<string, unknown>) =>
  checkout.PaymentsApi.payments(
    { merchantAccount, returnUrl, reference: reference(String((body.paymentMethod as { type?: string }).type)), ...body } as never,
    idem(),
  );
const details = (body: Record<string, unknown>) => checkout.PaymentsApi.paymentsDetails(body as never, idem());
const capture = (psp: string, value: number, extra: Record<string, unknown> = {}) =>
  checkout.ModificationsApi.captureAuthorisedPayment(psp, { merchantAccount, amount: eur(value), ...extra }, idem());
const refund = (psp: string, value: number) => checkout.ModificationsApi.refundCapturedPayment(psp, { merchantAccount, amount: eur(value) }, idem());

/**
 * The shopper passes the issuer's challenge as adyen-web frames it: the access control server's
 * page gets the creq, the shopper enters the sandbox password, the page answers with a cres.
 */
async function passChallenge(action: unknown): Promise<void> {
  const token = decode((action as { token: string }).token);
  const creq = Buffer.from(JSON.stringify({ acsTransID: token.acsTransID, messageType: 'CReq', messageVersion: '2.2.0' })).toString('base64url');
  expect((await fetch(token.acsURL!, { method: 'POST', body: new URLSearchParams({ creq }) })).status).toBe(200);
  const answered = await fetch(`${token.acsURL}/answer`, { method: 'POST', body: new URLSearchParams({ password: 'password' }) });
  expect(await answered.text()).toContain('data-trans-status="Y"');
}

describe('Cards with native 3D Secure 2 through the Adyen library', () => {
  test('When the full-flow card is paid as adyen-web would (fingerprint, challenge page, challenge result), then it is authorised, captured and refunded with signed events', async () => {
    expect((await offered({ countryCode: 'NL', amount: eur(4200) })).get('scheme')?.brands).toContain('maestro');
    const started = await pay({
      amount: eur(4200),
      paymentMethod: { type: 'scheme', encryptedCardNumber: 'test_5000550000000029', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030' },
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
      channel: 'Web',
      origin: 'https://shop.example.com',
      browserInfo: {
        acceptHeader: 'text/html',
        colorDepth: 24,
        javaEnabled: false,
        language: 'nl-NL',
        screenHeight: 900,
        screenWidth: 1440,
        timeZoneOffset: -60,
        userAgent: 'jest',
      },
    });
    expect(started.resultCode).toBe('IdentifyShopper');
    const fingerprint = started.action as { subtype: string; token: string; paymentData: string };
    expect(fingerprint.subtype).toBe('fingerprint');
    // A client that runs no 3DS method page reports threeDSCompInd "U".
    expect(decode(fingerprint.token).threeDSMethodUrl).toMatch(/\/hosted\/3ds2\/method$/);
    const challenged = await details({ details: { threeDSResult: b64({ threeDSCompInd: 'U' }) }, paymentData: fingerprint.paymentData });
    expect(challenged.resultCode).toBe('ChallengeShopper');
    const challenge = challenged.action as { subtype: string; token: string; authorisationToken: string };
    expect(challenge.subtype).toBe('challenge');
    await passChallenge(challenge);
    const finished = await details({ details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: challenge.authorisationToken }) } });
    expect(finished).toMatchObject({ resultCode: 'Authorised', threeDS2Result: { transStatus: 'Y' } });
    const psp = finished.pspReference!;
    expect((await capture(psp, 4200)).status).toBe('received');
    expect((await refund(psp, 4200)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });
});

describe('Gift cards through the Adyen library', () => {
  test('When a gift card pays part of an order and a card the rest, then the balance, the order, the capture, the refund and the events follow', async () => {
    await setUpMethod({
      type: 'givex',
      currencies: ['EUR'],
      givex: { currencyCode: 'EUR', password: 'sandbox-secret', paymentFlow: 'Ecommerce', username: 'givex-user' },
    });
    expect((await offered({ amount: eur(8000) })).get('giftcard/givex')).toMatchObject({ type: 'giftcard', brand: 'givex', name: 'Givex' });
    const card = { type: 'giftcard', brand: 'givex', encryptedCardNumber: 'test_6036283997595793321', encryptedSecurityCode: 'test_1234' };
    const check = await checkout.OrdersApi.getBalanceOfGiftCard({ merchantAccount, amount: eur(15000), paymentMethod: card }, idem());
    expect(check).toMatchObject({ resultCode: 'NotEnoughBalance', balance: eur(10000) });

    const order = await checkout.OrdersApi.orders({ merchantAccount, reference: reference('order'), amount: eur(15000) }, idem());
    const partial = await pay({ amount: check.balance, paymentMethod: card, order: { pspReference: order.pspReference!, orderData: order.orderData } });
    expect(partial).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'giftcard', brand: 'givex' }, order: { remainingAmount: eur(5000) } });
    const rest = await pay({
      amount: eur(5000),
      paymentMethod: { type: 'scheme', encryptedCardNumber: 'test_4111111111111111', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030' },
      order: { pspReference: order.pspReference!, orderData: partial.order!.orderData },
    });
    expect(rest).toMatchObject({ resultCode: 'Authorised', order: { remainingAmount: eur(0) } });
    expect((await checkout.OrdersApi.getBalanceOfGiftCard({ merchantAccount, amount: eur(1), paymentMethod: card }, idem())).resultCode).toBe(
      'NotEnoughBalance',
    );

    expect(await eventsOf(order.pspReference!)).toEqual(['ORDER_OPENED:true', 'ORDER_CLOSED:true']);
    expect(await eventsOf(partial.pspReference!)).toEqual(['AUTHORISATION:true']);
    expect((await capture(partial.pspReference!, 10000)).status).toBe('received');
    expect((await refund(partial.pspReference!, 4000)).status).toBe('received');
    expect(await eventsOf(partial.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
    // The refund gives the card back what it returned.
    expect(await checkout.OrdersApi.getBalanceOfGiftCard({ merchantAccount, amount: eur(5000), paymentMethod: card }, idem())).toMatchObject({
      resultCode: 'NotEnoughBalance',
      balance: eur(4000),
    });
  });
});

/** Follows a redirect action's hosted page as the shopper's browser does; returns the redirectResult of the return URL. */
async function shopperAnswers(action: unknown, outcome: string): Promise<string> {
  const { url } = action as { url: string };
  expect((await fetch(url)).status).toBe(200);
  const answered = await fetch(`${url}/answer?outcome=${outcome}`, { redirect: 'manual' });
  const back = new URL(answered.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(returnUrl);
  return back.searchParams.get('redirectResult')!;
}

describe('iDEAL through the Adyen library', () => {
  test('When the shopper pays at the bank page, then the payment is authorised, captured at once and refunded, with signed events', async () => {
    expect((await offered({ countryCode: 'NL', amount: eur(2500) })).get('ideal')).toMatchObject({
      type: 'ideal',
      name: 'iDEAL',
      issuers: expect.arrayContaining([expect.objectContaining({ id: '1121', name: 'Test Issuer' })]),
    });
    const started = await pay({ amount: eur(2500), countryCode: 'NL', paymentMethod: { type: 'ideal' } });
    expect(started).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET' } });
    const finished = await details({ details: { redirectResult: await shopperAnswers(started.action, 'authorised') } });
    expect(finished.resultCode).toBe('Authorised');
    expect((await refund(finished.pspReference!, 2500)).status).toBe('received');
    expect(await eventsOf(finished.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });
});

describe('Klarna through the Adyen library', () => {
  test('When the shopper buys with Klarna, then the payment is authorised and captured per line item, with signed events', async () => {
    expect((await offered({ countryCode: 'NL', amount: eur(8000) })).get('klarna')).toMatchObject({ type: 'klarna' });
    const lineItems = [
      { id: 'jacket', description: 'Jacket', quantity: 1, amountIncludingTax: 6000, taxPercentage: 2100 },
      { id: 'hat', description: 'Hat', quantity: 1, amountIncludingTax: 2000, taxPercentage: 2100 },
    ];
    const started = await pay({
      amount: eur(8000),
      countryCode: 'NL',
      shopperLocale: 'nl-NL',
      shopperEmail: 'customer@example.com',
      lineItems,
      paymentMethod: { type: 'klarna' },
    });
    expect(started.resultCode).toBe('RedirectShopper');
    const finished = await details({ details: { redirectResult: await shopperAnswers(started.action, 'authorised') } });
    expect(finished.resultCode).toBe('Authorised');
    const psp = finished.pspReference!;
    expect((await capture(psp, 6000, { lineItems: [lineItems[0]] })).status).toBe('received');
    expect((await refund(psp, 6000)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });
});

/** Moves the demo company's sandbox clock (the dispatcher then does what fell due). */
async function advance(seconds: number): Promise<void> {
  const { response } = await server.checkout.POST('/sandbox/clock/advance', { body: { seconds } });
  expect(response.status).toBe(200);
}

describe('SEPA Direct Debit through the Adyen library', () => {
  test('When a debit is made, then it is Received, authorised by event the next day, and captured and refunded', async () => {
    expect((await offered({ countryCode: 'DE', amount: eur(3000) })).get('sepadirectdebit')).toEqual({ type: 'sepadirectdebit', name: 'SEPA Direct Debit' });
    const started = await pay({
      amount: eur(3000),
      countryCode: 'DE',
      paymentMethod: { type: 'sepadirectdebit', iban: 'DE87123456781234567890', ownerName: 'A. Schneider' },
    });
    expect(started.resultCode).toBe('Received');
    const psp = started.pspReference!;
    expect(await eventsOf(psp)).toEqual([]);
    await advance(24 * 3600);
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true']);
    expect((await capture(psp, 3000)).status).toBe('received');
    expect((await refund(psp, 1000)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });
});

describe('Bancontact through the Adyen library', () => {
  test('When a Bancontact card is paid natively and the shopper passes the challenge page, then it is authorised, captured and refunded with signed events', async () => {
    expect((await offered({ countryCode: 'BE', amount: eur(1500) })).get('bcmc')).toEqual({ type: 'bcmc', name: 'Bancontact card' });
    const started = await pay({
      amount: eur(1500),
      countryCode: 'BE',
      paymentMethod: { type: 'bcmc', encryptedCardNumber: 'test_6703444444444449', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030' },
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
    });
    expect(started).toMatchObject({ resultCode: 'ChallengeShopper', paymentMethod: { type: 'bcmc', brand: 'bcmc' }, action: { subtype: 'challenge' } });
    const challenge = started.action as { authorisationToken: string };
    await passChallenge(challenge);
    const finished = await details({ details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: challenge.authorisationToken }) } });
    expect(finished).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'bcmc', brand: 'bcmc' } });
    const psp = finished.pspReference!;
    expect((await capture(psp, 1500)).status).toBe('received');
    expect((await refund(psp, 1500)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  test('When Bancontact mobile is switched on in Management and the app pays the QR code, then polling gives Authorised, and it is captured and refunded', async () => {
    // The demo account's Bancontact setting gets the mobile app as a merchant switches it on: PATCH bcmc.enableBcmcMobile.
    const { data: settings } = await server.management.GET('/merchants/{merchantId}/paymentMethodSettings', {
      params: { path: { merchantId: merchantAccount }, query: { pageSize: 100 } },
    });
    const bcmc = settings!.data!.find((s) => s.type === 'bcmc' && (s.storeIds ?? []).length === 0)!;
    const { response } = await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
      params: { path: { merchantId: merchantAccount, paymentMethodId: bcmc.id } },
      body: { bcmc: { enableBcmcMobile: true } },
    });
    expect(response.status).toBe(200);
    expect((await offered({ countryCode: 'BE', amount: eur(1200) })).get('bcmc_mobile')).toEqual({ type: 'bcmc_mobile', name: 'Payconiq by Bancontact' });
    const started = await pay({ amount: eur(1200), countryCode: 'BE', paymentMethod: { type: 'bcmc_mobile' } });
    expect(started.resultCode).toBe('Pending');
    const qr = started.action as { type: string; qrCodeData: string; paymentData: string };
    expect(qr.type).toBe('qrCode');
    expect((await details({ details: {}, paymentData: qr.paymentData })).resultCode).toBe('Pending');
    await fetch(`${qr.qrCodeData}/answer`, { method: 'POST', body: new URLSearchParams({ outcome: 'authorised' }) });
    expect((await details({ details: {}, paymentData: qr.paymentData })).resultCode).toBe('Authorised');
    // Bancontact mobile is captured at once: it is refunded, not captured.
    expect((await refund(started.pspReference!, 1200)).status).toBe('received');
    expect(await eventsOf(started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });
});

describe('Apple Pay and Google Pay through the Adyen library', () => {
  const token = (card: Record<string, string>) => Buffer.from(JSON.stringify(card)).toString('base64');

  test('When Apple Pay is offered and its test token pays, then the payment names the card and is captured and refunded with signed events', async () => {
    const methods = await offered({ channel: 'Web', amount: eur(2000) });
    expect(methods.get('applepay')?.configuration).toMatchObject({ merchantId: expect.stringMatching(/^merchant\./), merchantName: 'Demo Merchant ECOM' });
    const apple = await pay({
      amount: eur(2000),
      paymentMethod: { type: 'applepay', applePayToken: token({ number: '4111111111111111', expiryMonth: '03', expiryYear: '2030' }) },
    });
    expect(apple).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'applepay', brand: 'visa' } });
    expect((await capture(apple.pspReference!, 2000)).status).toBe('received');
    expect((await refund(apple.pspReference!, 2000)).status).toBe('received');
    expect(await eventsOf(apple.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  test("When Google Pay is offered and a token of the wallet's sheet pays, then the network's card is used, and it is captured and refunded with signed events", async () => {
    const methods = await offered({ channel: 'Web', amount: eur(2000) });
    expect(methods.get('googlepay')?.configuration).toMatchObject({ gatewayMerchantId: merchantAccount });
    const google = await pay({
      amount: eur(2000),
      paymentMethod: {
        type: 'googlepay',
        googlePayToken: JSON.stringify({ protocolVersion: 'ECv2', signature: 'MEQ', signedMessage: '{}' }),
        googlePayCardNetwork: 'MASTERCARD',
      },
    });
    expect(google).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'googlepay', brand: 'mc' } });
    const psp = google.pspReference!;
    expect((await capture(psp, 2000)).status).toBe('received');
    expect((await refund(psp, 500)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
    const event = receiver.items().find((i) => i.pspReference === psp && i.eventCode === 'AUTHORISATION');
    expect(event).toMatchObject({ paymentMethod: 'mc', additionalData: { paymentMethodVariant: 'mc_googlepay' } });
  });
});

describe('Vouchers through the Adyen library', () => {
  test('When Multibanco is offered and paid, then the voucher is shown, paid on the sandbox page, authorised by event and refunded', async () => {
    await setUpMethod({ type: 'multibanco', countries: ['PT'], currencies: ['EUR'] });
    expect((await offered({ countryCode: 'PT', amount: eur(5000) })).get('multibanco')).toEqual({ type: 'multibanco', name: 'Multibanco' });
    const started = await pay({ amount: eur(5000), countryCode: 'PT', paymentMethod: { type: 'multibanco' } });
    expect(started.resultCode).toBe('PresentToShopper');
    const voucher = started.action as { type: string; entity: string; reference: string; downloadUrl: string };
    expect(voucher).toMatchObject({ type: 'voucher', entity: '12345' });
    await fetch(`${voucher.downloadUrl}/pay`, { method: 'POST' });
    expect(await eventsOf(started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
    expect((await refund(started.pspReference!, 5000)).status).toBe('received');
    expect(await eventsOf(started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  const boleto = {
    amount: { currency: 'BRL', value: 9900 },
    countryCode: 'BR',
    shopperName: { firstName: 'José', lastName: 'Silva' },
    socialSecurityNumber: '56861752509',
    billingAddress: { street: 'Rua Funcionarios', houseNumberOrName: '952', city: 'São Paulo', postalCode: '04386040', stateOrProvince: 'SP', country: 'BR' },
    paymentMethod: { type: 'boletobancario' },
  };

  test('When a Boleto is paid, then it is authorised by event and refunded', async () => {
    const started = await pay(boleto);
    expect(started).toMatchObject({ resultCode: 'PresentToShopper', action: { type: 'voucher', paymentMethodType: 'boletobancario' } });
    const voucher = started.action as { reference: string; downloadUrl: string };
    expect(voucher.reference).toMatch(/^\d{47}$/);
    await fetch(`${voucher.downloadUrl}/pay`, { method: 'POST' });
    expect(await eventsOf(started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
    expect((await checkout.ModificationsApi.refundCapturedPayment(started.pspReference!, { merchantAccount, amount: boleto.amount }, idem())).status).toBe(
      'received',
    );
    expect(await eventsOf(started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  test('When a Boleto is not paid in time, then OFFER_CLOSED arrives', async () => {
    const started = await pay(boleto);
    expect(started.resultCode).toBe('PresentToShopper');
    await advance(5 * 24 * 3600 + 60);
    expect(await eventsOf(started.pspReference!)).toEqual(['OFFER_CLOSED:true']);
  });
});

describe('PayPal through the Adyen library', () => {
  test('When PayPal is paid in its own window (sdk), with the order updated on the way, then it is authorised, captured and refunded with signed events', async () => {
    expect((await offered({ amount: eur(3000) })).get('paypal')).toMatchObject({ type: 'paypal', name: 'PayPal', configuration: { intent: 'authorize' } });
    const started = await pay({ amount: eur(3000), paymentMethod: { type: 'paypal', subtype: 'sdk' } });
    expect(started).toMatchObject({ resultCode: 'Pending', action: { type: 'sdk', paymentMethodType: 'paypal' } });
    const sdk = started.action as unknown as { paymentData: string; sdkData: { token: string } };
    // The shopper picks a delivery in PayPal's window: the merchant's server updates the order's amount.
    const updated = await checkout.UtilityApi.updatesOrderForPaypalExpressCheckout(
      {
        pspReference: started.pspReference!,
        paymentData: sdk.paymentData,
        amount: eur(3500),
        deliveryMethods: [{ reference: 'express', description: 'Express', type: 'Shipping' as never, amount: eur(500), selected: true }],
      },
      idem(),
    );
    expect(updated.status).toBe('success');
    const finished = await details({ details: { orderID: sdk.sdkData.token, payerID: 'SANDBOXPAYER1' }, paymentData: updated.paymentData });
    expect(finished).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'paypal' } });
    const psp = finished.pspReference!;
    expect((await capture(psp, 3500)).status).toBe('received');
    expect((await refund(psp, 3500)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  test('When PayPal is paid by redirect, then the shopper approves on the PayPal page, and the redirectResult authorises it for capture and refund', async () => {
    const started = await pay({ amount: eur(2500), paymentMethod: { type: 'paypal', subtype: 'redirect' } });
    expect(started).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET', paymentMethodType: 'paypal' } });
    const finished = await details({ details: { redirectResult: await shopperAnswers(started.action, 'authorised') } });
    expect(finished).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'paypal' } });
    const psp = finished.pspReference!;
    expect((await capture(psp, 2500)).status).toBe('received');
    expect((await refund(psp, 1000)).status).toBe('received');
    expect(await eventsOf(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });
});
