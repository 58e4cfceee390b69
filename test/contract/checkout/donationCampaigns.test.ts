import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const campaigns = (currency: string) => server.checkout.POST('/donationCampaigns', { body: { merchantAccount: 'DemoMerchantECOM', currency } });

describe('POST /donationCampaigns', () => {
  test('When euro campaigns are asked for, then the active fixed-amount and round-up campaigns come, not the ended one', async () => {
    const { data } = await campaigns('EUR');
    expect(data?.donationCampaigns?.map((c) => c.id)).toEqual(['DONATION_CAMPAIGN_OCEAN', 'DONATION_CAMPAIGN_SCHOOLS']);
    expect(data?.donationCampaigns?.[0]?.donation).toEqual({ currency: 'EUR', type: 'fixedAmounts', donationType: 'fixedAmounts', values: [100, 500, 1000] });
    expect(data?.donationCampaigns?.[1]?.donation).toEqual({ currency: 'EUR', type: 'roundup', donationType: 'roundup', maxRoundupAmount: 100 });
  });

  test('When dollar campaigns are asked for, then only the dollar campaign comes', async () => {
    expect((await campaigns('USD')).data?.donationCampaigns?.map((c) => c.id)).toEqual(['DONATION_CAMPAIGN_FORESTS']);
  });

  test('When no campaign takes the currency, then the list is empty', async () => {
    expect((await campaigns('JPY')).data).toEqual({ donationCampaigns: [] });
  });

  test('When the currency is not three capital letters, then the answer is 422', async () => {
    expect((await campaigns('eur')).response.status).toBe(422);
  });
});
