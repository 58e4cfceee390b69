import { command } from '../../kernel/http/handler.js';
import { activeCampaigns } from './donations.domain.js';

/** POST /donationCampaigns */
export const donationCampaigns = command('donationCampaigns')(async ({ tx, body, caller }, deps) => ({
  donationCampaigns: await activeCampaigns(tx, deps.clock.now(caller.credential.companyId), caller.credential, body),
}));
