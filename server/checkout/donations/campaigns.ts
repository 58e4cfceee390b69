/** A donation campaign a merchant account offers, and the charity account donations go to. */
export interface Campaign {
  id: string;
  campaignName: string;
  causeName: string;
  nonprofitName: string;
  nonprofitDescription: string;
  nonprofitUrl: string;
  logoUrl: string;
  bannerUrl: string;
  termsAndConditionsUrl: string;
  donation: { currency: string; type: 'fixedAmounts'; values: number[] } | { currency: string; type: 'roundup'; maxRoundupAmount: number };
  /** The charity's account donations are credited to (`donationAccount` of /donations); not shown by /donationCampaigns. */
  donationAccount: string;
  startsAt: string;
  endsAt: string;
}

const org = (slug: string, name: string, description: string) => ({
  nonprofitName: name,
  nonprofitDescription: description,
  nonprofitUrl: `https://${slug}.example.org`,
  logoUrl: `https://${slug}.example.org/logo.png`,
  bannerUrl: `https://${slug}.example.org/banner.png`,
  termsAndConditionsUrl: `https://${slug}.example.org/terms`,
});

/** The seeded campaigns every demo merchant account offers; which are active depends on the clock. */
export const CAMPAIGNS: Campaign[] = [
  {
    id: 'DONATION_CAMPAIGN_OCEAN',
    campaignName: 'Clean Oceans',
    causeName: 'Environment',
    ...org('oceans', 'Ocean Cleanup Fund', 'Removes plastic from the oceans.'),
    donation: { currency: 'EUR', type: 'fixedAmounts', values: [100, 500, 1000] },
    donationAccount: 'OCEAN_CLEANUP_FUND',
    startsAt: '2020-01-01T00:00:00Z',
    endsAt: '2099-12-31T23:59:59Z',
  },
  {
    id: 'DONATION_CAMPAIGN_SCHOOLS',
    campaignName: 'Round up for schools',
    causeName: 'Education',
    ...org('schools', 'Schools for All', 'Builds schools.'),
    donation: { currency: 'EUR', type: 'roundup', maxRoundupAmount: 100 },
    donationAccount: 'SCHOOLS_FOR_ALL',
    startsAt: '2020-01-01T00:00:00Z',
    endsAt: '2099-12-31T23:59:59Z',
  },
  {
    id: 'DONATION_CAMPAIGN_FORESTS',
    campaignName: 'Replant forests',
    causeName: 'Environment',
    ...org('forests', 'Forests Now', 'Plants trees.'),
    donation: { currency: 'USD', type: 'fixedAmounts', values: [200, 1000] },
    donationAccount: 'FORESTS_NOW',
    startsAt: '2020-01-01T00:00:00Z',
    endsAt: '2099-12-31T23:59:59Z',
  },
  {
    id: 'DONATION_CAMPAIGN_WINTER_2019',
    campaignName: 'Winter relief 2019',
    causeName: 'Shelter',
    ...org('winter', 'Warm Homes', 'Ended campaign kept for history.'),
    donation: { currency: 'EUR', type: 'fixedAmounts', values: [500] },
    donationAccount: 'WARM_HOMES',
    startsAt: '2019-11-01T00:00:00Z',
    endsAt: '2020-02-29T23:59:59Z',
  },
];

/** The campaigns active at `at`, in a currency when one is given. */
export function activeAt(at: Date, currency?: string): Campaign[] {
  const t = at.getTime();
  return CAMPAIGNS.filter((c) => (currency === undefined || c.donation.currency === currency) && Date.parse(c.startsAt) <= t && t <= Date.parse(c.endsAt));
}
