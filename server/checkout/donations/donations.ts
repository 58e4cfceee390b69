import { command } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import { toPaymentResponse } from '../payments/payments.js';
import { activeCampaigns, donate } from './donations.domain.js';

/** POST /donationCampaigns */
export const donationCampaigns = command('donationCampaigns')(async ({ tx, body, caller }, deps) => ({
  donationCampaigns: await activeCampaigns(tx, deps.clock.now(caller.credential.companyId), caller.credential, body),
}));

/** POST /donations */
export const donations = command('donations')(async ({ tx, body, caller, req }, deps) => {
  const ctx = { tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault };
  const { donation, outcome } = await donate(ctx, caller.credential, body);
  // The donation's own payment offers no donation token.
  const { donationToken: _none, ...payment } = toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
  return {
    amount: { currency: donation.currency, value: donation.value },
    donationAccount: donation.donationAccount,
    id: donation.id,
    merchantAccount: donation.merchantAccount,
    payment,
    reference: donation.reference,
    status: donation.status,
  };
});
