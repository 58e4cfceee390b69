import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { components } from '../../../generated/checkout.js';
import {
  ERR_DONATION_ACCOUNT,
  ERR_DONATION_AMOUNT,
  ERR_DONATION_CAMPAIGN,
  ERR_DONATION_SOURCE,
  ERR_DONATION_TOKEN,
  ERR_DONATION_TOKEN_USED,
  ERR_TOKEN_NOT_FOUND,
} from '../../../server/kernel/errors.js';
import { buildPaymentRequest, rawCard, uniqueReference } from '../../helpers/factories.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

type DonationRequest = components['schemas']['DonationPaymentRequest'];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** An authorised card payment and the donation token its response offers. */
async function paid(overrides: Parameters<typeof buildPaymentRequest>[0] = {}) {
  const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest(overrides) });
  expect(data?.resultCode).toBe('Authorised');
  return { psp: data!.pspReference!, token: data!.donationToken! };
}

const donation = (overrides: Partial<DonationRequest> = {}): DonationRequest => ({
  amount: eur(500),
  reference: uniqueReference('donation'),
  merchantAccount: 'DemoMerchantECOM',
  returnUrl: 'https://shop.example.com/return',
  donationCampaignId: 'DONATION_CAMPAIGN_OCEAN',
  paymentMethod: { type: 'scheme' },
  shopperInteraction: 'ContAuth',
  ...overrides,
});
const donate = (body: DonationRequest) => server.checkout.POST('/donations', { body });
const withToken = async (overrides: Partial<DonationRequest> = {}) => {
  const original = await paid();
  return { original, body: donation({ donationOriginalPspReference: original.psp, donationToken: original.token, ...overrides }) };
};
const allEvents = () => server.store.transaction((tx) => tx.outbox.listEvents('DemoMerchantECOM', 0, 10_000));
const eventsOf = (psp: string) =>
  server.store.transaction(async (tx) => (await tx.outbox.listEvents('DemoMerchantECOM', 0, 10_000)).filter((e) => e.pspReference === psp));

describe('POST /payments', () => {
  test('When a card payment is authorised while a campaign in its currency is active, then the response offers a donationToken', async () => {
    const { token } = await paid();
    expect(token).toEqual(expect.any(String));
  });

  test('When the payment is refused, or no campaign takes its currency, then no donationToken is offered', async () => {
    const refused = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: rawCard('4111111111111111', { holderName: 'REFUSED' }) }),
    });
    expect(refused.data?.resultCode).toBe('Refused');
    expect(refused.data?.donationToken).toBeUndefined();
    const pounds = await server.checkout.POST('/payments', { body: buildPaymentRequest({ amount: { currency: 'GBP', value: 1000 } }) });
    expect(pounds.data?.resultCode).toBe('Authorised');
    expect(pounds.data?.donationToken).toBeUndefined();
  });
});

describe('POST /donations', () => {
  test('When the donation token of an authorised payment is sent, then the same card is charged for the campaign and an AUTHORISATION event names the donation account', async () => {
    const { original, body } = await withToken();
    const { data, response } = await donate(body);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      amount: eur(500),
      donationAccount: 'OCEAN_CLEANUP_FUND',
      id: expect.stringMatching(/^[0-9A-Z]{16}$/),
      merchantAccount: 'DemoMerchantECOM',
      reference: body.reference,
      status: 'completed',
      payment: {
        resultCode: 'Authorised',
        merchantReference: body.reference,
        amount: eur(500),
        paymentMethod: { type: 'scheme', brand: 'visa' },
        additionalData: { cardSummary: '1111', cardBin: '411111', expiryDate: '3/2030' },
      },
    });
    // The donation is a payment of its own, not the original again, and offers no further donation.
    const donated = data!.payment.pspReference!;
    expect(donated).not.toBe(original.psp);
    expect(data!.payment.donationToken).toBeUndefined();
    expect(await eventsOf(donated)).toEqual([
      expect.objectContaining({
        eventCode: 'AUTHORISATION',
        success: true,
        merchantReference: body.reference,
        value: 500,
        additionalData: expect.objectContaining({
          donationAccount: 'OCEAN_CLEANUP_FUND',
          donationCampaignId: 'DONATION_CAMPAIGN_OCEAN',
          'donation.originalPspReference': original.psp,
        }),
      }),
    ]);
    const stored = await server.store.read((tx) => tx.donations.ofPayment(donated));
    expect(stored).toMatchObject({ id: data!.id, originalPspReference: original.psp, campaignId: 'DONATION_CAMPAIGN_OCEAN', status: 'completed' });
  });

  test('When the donation payment is then captured, then it is captured as any payment of the merchant account', async () => {
    const { body } = await withToken();
    const { data } = await donate(body);
    const capture = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      params: { path: { paymentPspReference: data!.payment.pspReference! } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(500) },
    });
    expect(capture.response.status).toBe(201);
  });

  test('When a token is used a second time, then the answer is 422 code 23_004 and no second donation or payment is made', async () => {
    const { original, body } = await withToken();
    expect((await donate(body)).response.status).toBe(200);
    const eventsBefore = (await allEvents()).length;
    const again = await donate({ ...body, reference: uniqueReference('donation') });
    expect(again.response.status).toBe(422);
    expect(again.error).toMatchObject({ errorCode: ERR_DONATION_TOKEN_USED.code });
    expect(await server.store.read((tx) => tx.donations.ofOriginalPayment(original.psp))).toMatchObject({ reference: body.reference });
    expect(await allEvents()).toHaveLength(eventsBefore);
  });

  test('When the same token is sent twice at once, then exactly one donation is made and the other is refused with 23_004', async () => {
    const { original, body } = await withToken();
    const answers = await Promise.all([donate(body), donate({ ...body, reference: uniqueReference('donation') })]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.response.status === 422)?.error).toMatchObject({ errorCode: ERR_DONATION_TOKEN_USED.code });
    const donated = answers.find((a) => a.response.status === 200)!.data!;
    expect(await server.store.read((tx) => tx.donations.ofOriginalPayment(original.psp))).toMatchObject({ id: donated.id });
  });

  test.each([
    ['a token that is not the payment’s', (b: DonationRequest) => ({ ...b, donationToken: 'not-the-token' })],
    ['a token without its original payment', (b: DonationRequest) => ({ ...b, donationOriginalPspReference: undefined })],
    ['an original payment that does not exist', (b: DonationRequest) => ({ ...b, donationOriginalPspReference: '0000000000000000' })],
    ['another merchant account than the payment’s', (b: DonationRequest) => ({ ...b, merchantAccount: 'DemoMerchantPOS' })],
  ])('When %s is sent, then the answer is 422 code 23_003', async (_name, change) => {
    const { body } = await withToken();
    const { error, response } = await donate(change(body));
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ errorCode: ERR_DONATION_TOKEN.code });
  });

  test('When the original payment is itself a donation, then its pspReference pays for no further donation (23_003)', async () => {
    const { body } = await withToken();
    const first = await donate(body);
    const psp = first.data!.payment.pspReference!;
    const { error } = await donate(donation({ donationOriginalPspReference: psp, donationToken: body.donationToken! }));
    expect(error).toMatchObject({ errorCode: ERR_DONATION_TOKEN.code });
  });

  test.each([
    ['an amount the fixed-amount campaign does not offer', { amount: eur(300) }],
    ['a round-up above the campaign’s maximum', { amount: eur(101), donationCampaignId: 'DONATION_CAMPAIGN_SCHOOLS' }],
    ['an amount in another currency than the campaign’s', { amount: { currency: 'USD', value: 500 } }],
  ] as Array<[string, Partial<DonationRequest>]>)('When %s is sent, then the answer is 422 code 23_002 and the token stays unused', async (_name, change) => {
    const { original, body } = await withToken(change);
    const { error } = await donate(body);
    expect(error).toMatchObject({ errorCode: ERR_DONATION_AMOUNT.code });
    expect(await server.store.read((tx) => tx.donations.ofOriginalPayment(original.psp))).toBeUndefined();
    const later = await donate({ ...body, amount: eur(100), donationCampaignId: 'DONATION_CAMPAIGN_OCEAN' });
    expect(later.data?.status).toBe('completed');
  });

  test('When a round-up within the maximum is sent, then it is accepted', async () => {
    const { body } = await withToken({ amount: eur(37), donationCampaignId: 'DONATION_CAMPAIGN_SCHOOLS' });
    const { data } = await donate(body);
    expect(data).toMatchObject({ status: 'completed', donationAccount: 'SCHOOLS_FOR_ALL', amount: eur(37) });
  });

  test.each([
    { named: 'a campaign that does not exist', change: { donationCampaignId: 'NO_SUCH_CAMPAIGN' }, code: ERR_DONATION_CAMPAIGN.code },
    { named: 'a campaign that has ended', change: { donationCampaignId: 'DONATION_CAMPAIGN_WINTER_2019' }, code: ERR_DONATION_CAMPAIGN.code },
    { named: 'neither a campaign nor a donation account', change: { donationCampaignId: undefined }, code: ERR_DONATION_CAMPAIGN.code },
    { named: 'a donation account of another campaign', change: { donationAccount: 'SCHOOLS_FOR_ALL' }, code: ERR_DONATION_ACCOUNT.code },
    { named: 'an unknown donation account alone', change: { donationCampaignId: undefined, donationAccount: 'NOBODY' }, code: ERR_DONATION_ACCOUNT.code },
  ] as Array<{ named: string; change: Partial<DonationRequest>; code: string }>)(
    'When $named is named, then the answer is 422 code $code',
    async ({ change, code }) => {
      const { body } = await withToken(change);
      expect((await donate(body)).error).toMatchObject({ errorCode: code });
    },
  );

  test('When only the donation account is named, then its active campaign is meant', async () => {
    const { body } = await withToken({ donationCampaignId: undefined, donationAccount: 'OCEAN_CLEANUP_FUND', amount: eur(1000) });
    expect((await donate(body)).data).toMatchObject({ status: 'completed', donationAccount: 'OCEAN_CLEANUP_FUND' });
  });

  test('When a stored card of the shopper is named, then it is charged', async () => {
    const stored = await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount: 'DemoMerchantECOM',
        shopperReference: 'donor-1',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: rawCard('5555341244441115'),
      },
    });
    const body = donation({
      amount: eur(100),
      paymentMethod: { type: 'scheme', storedPaymentMethodId: stored.data!.id! },
      shopperReference: 'donor-1',
      recurringProcessingModel: 'CardOnFile',
    });
    const { data } = await donate(body);
    expect(data).toMatchObject({
      status: 'completed',
      donationAccount: 'OCEAN_CLEANUP_FUND',
      payment: { resultCode: 'Authorised', paymentMethod: { brand: 'mc' } },
    });
    const events = await eventsOf(data!.payment.pspReference!);
    expect(events.map((e) => e.eventCode)).toEqual(['AUTHORISATION']);
  });

  test('When the stored card is not the shopper’s, then the answer is 422 code 800', async () => {
    const stored = await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount: 'DemoMerchantECOM',
        shopperReference: 'donor-2',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: rawCard('5555341244441115'),
      },
    });
    const body = donation({ amount: eur(100), paymentMethod: { type: 'scheme', storedPaymentMethodId: stored.data!.id! }, shopperReference: 'someone-else' });
    expect((await donate(body)).error).toMatchObject({ errorCode: ERR_TOKEN_NOT_FOUND.code });
  });

  test('When neither a donation token nor a stored card is sent, then the answer is 422 code 23_005', async () => {
    expect((await donate(donation())).error).toMatchObject({ errorCode: ERR_DONATION_SOURCE.code });
  });

  test('When the merchant-level credential donates with a token of its own merchant account, then it succeeds', async () => {
    const { body } = await withToken();
    const { data } = await server.merchantCheckout.POST('/donations', { body });
    expect(data?.status).toBe('completed');
  });
});
