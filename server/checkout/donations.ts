import type { operations } from '../../generated/checkout.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import { activeCampaigns } from './donations.domain.js';

/** POST /donationCampaigns */
export const donationCampaigns: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => ({
    donationCampaigns: await activeCampaigns(tx, deps.clock.now(caller.credential.companyId), caller.credential, req.body as JsonBody<operations['donationCampaigns']>),
  }));
