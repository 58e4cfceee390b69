import type { operations } from '../../generated/checkout.js';
import { baseUrlOf, pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import type { PaymentLink } from '../store/types.js';
import { createLink, expireLink, getLink, type LinkInput } from './payment-links.domain.js';

/** The wire form of a link: the stored request fields plus its state. */
export const toLinkView = (link: PaymentLink, baseUrl: string) => ({
  ...link.fields,
  id: link.id,
  status: link.status,
  url: `${baseUrl}/payByLink/${link.id}`,
  reusable: link.reusable,
  expiresAt: link.expiresAt,
  updatedAt: link.updatedAt,
});

/** POST /paymentLinks */
export const paymentLinks: HandlerFactory = (deps) =>
  deps.commands.handler(201, async (tx, caller, req) => {
    const link = await createLink(tx, deps.clock.now(caller.credential.companyId), caller.credential, req.body as JsonBody<operations['paymentLinks']> as LinkInput);
    return toLinkView(link, baseUrlOf(req, deps.config.publicBaseUrl));
  });

/** GET /paymentLinks/{linkId} */
export const getPaymentLink: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const link = await deps.store.transaction((tx) => getLink(tx, deps.clock.now(credential.companyId), credential, pathParam(req, 'linkId')));
  res.json(toLinkView(link, baseUrlOf(req, deps.config.publicBaseUrl)));
};

/** PATCH /paymentLinks/{linkId} */
export const updatePaymentLink: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const link = await deps.store.transaction((tx) => expireLink(tx, deps.clock.now(credential.companyId), credential, pathParam(req, 'linkId')));
  res.json(toLinkView(link, baseUrlOf(req, deps.config.publicBaseUrl)));
};
