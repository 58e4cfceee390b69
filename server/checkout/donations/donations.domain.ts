import { timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/checkout.js';
import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import {
  ApiError,
  ERR_DONATION_ACCOUNT,
  ERR_DONATION_AMOUNT,
  ERR_DONATION_CAMPAIGN,
  ERR_DONATION_SOURCE,
  ERR_DONATION_TOKEN,
  ERR_DONATION_TOKEN_USED,
} from '../../kernel/errors.js';
import type { Credential, Donation, Merchant, Payment } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { EXPIRED_CARD, isExpired } from '../payments/cards.js';
import { type PaymentContext, type PaymentOutcome, settleDueCapture } from '../payments/authorisation.js';
import { makePayment } from '../payments/payments.domain.js';
import { newAuthCode, newPspReference } from '../references.js';
import { activeAt, type Campaign } from './campaigns.js';
import { donationTokenOf } from './donation-token.js';

const HOUR_MS = 60 * 60 * 1000;

/** POST /donationCampaigns: campaigns active now that take the currency (their donation accounts are not shown). */
export async function activeCampaigns(tx: Tx, now: Date, credential: Credential, query: { merchantAccount: string; currency: string }) {
  await requireMerchantAccount(tx, credential, query.merchantAccount);
  return activeAt(now, query.currency).map(({ startsAt: _s, endsAt: _e, donationAccount: _a, donation, ...campaign }) => ({
    ...campaign,
    donation: { ...donation, donationType: donation.type },
  }));
}

/** The donation request's fields the domain reads, as the spec types them. */
export type DonationInput = Pick<
  components['schemas']['DonationPaymentRequest'],
  | 'merchantAccount'
  | 'reference'
  | 'returnUrl'
  | 'amount'
  | 'donationAccount'
  | 'donationCampaignId'
  | 'donationOriginalPspReference'
  | 'donationToken'
  | 'paymentMethod'
  | 'shopperReference'
>;

/** The campaign the donation is for: named by id or by its donation account, active now. */
function campaignOf(now: Date, input: DonationInput): Campaign {
  const active = activeAt(now);
  if (input.donationCampaignId !== undefined) {
    const campaign = active.find((c) => c.id === input.donationCampaignId);
    if (!campaign)
      throw new ApiError(ERR_DONATION_CAMPAIGN, { message: `Donation campaign ${input.donationCampaignId} not found: it is not an active campaign` });
    if (input.donationAccount !== undefined && input.donationAccount !== campaign.donationAccount) {
      throw new ApiError(ERR_DONATION_ACCOUNT, {
        message: `The donationAccount ${input.donationAccount} is not the donation account of campaign ${campaign.id}`,
      });
    }
    return campaign;
  }
  if (input.donationAccount === undefined) {
    throw new ApiError(ERR_DONATION_CAMPAIGN, { message: 'Donation campaign not found: send donationCampaignId (from /donationCampaigns) or donationAccount' });
  }
  const campaign = active.find((c) => c.donationAccount === input.donationAccount);
  if (!campaign) throw new ApiError(ERR_DONATION_ACCOUNT);
  return campaign;
}

/** The amount must be one the campaign offers: one of its fixed amounts, or a round-up up to its maximum. */
function checkAmount(campaign: Campaign, amount: Money): void {
  const { donation } = campaign;
  const offered = donation.type === 'fixedAmounts' ? donation.values.includes(amount.value) : amount.value >= 1 && amount.value <= donation.maxRoundupAmount;
  if (amount.currency === donation.currency && offered) return;
  const takes =
    donation.type === 'fixedAmounts'
      ? `${donation.currency} ${donation.values.join(', ')} (minor units)`
      : `${donation.currency} 1 to ${donation.maxRoundupAmount} (minor units, a round-up)`;
  throw new ApiError(ERR_DONATION_AMOUNT, { message: `The donation amount is not one the campaign offers: ${campaign.id} takes ${takes}` });
}

const sameToken = (expected: string, given: string) => expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

/** Hours until automatic capture of a donation: the merchant account's setting (null: captured on request). */
function captureDelayHours(merchant: Merchant): number | null {
  if (merchant.captureDelay === 'manual') return null;
  return merchant.captureDelay === 'immediate' ? 0 : merchant.captureDelay * 24;
}

/** The AUTHORISATION event of a donation charged by token, naming the campaign, its account and the original payment. */
async function reportDonation(tx: Tx, now: Date, donation: Payment, campaign: Campaign, originalPspReference: string): Promise<void> {
  const { authCode, cardLastFour, expiryMonth, expiryYear } = donation;
  await recordEvent(tx, now, {
    eventCode: 'AUTHORISATION',
    success: authCode !== null,
    reason: authCode !== null ? `${authCode}:${cardLastFour}:${expiryMonth}/${expiryYear}` : (donation.refusalReason ?? ''),
    additionalData: {
      donationAccount: campaign.donationAccount,
      donationCampaignId: campaign.id,
      'donation.originalPspReference': originalPspReference,
      cardSummary: cardLastFour,
      ...(authCode !== null && { authCode }),
    },
    paymentMethod: donation.cardBrand,
    pspReference: donation.pspReference,
    merchantReference: donation.reference,
    companyId: donation.companyId,
    merchantAccount: donation.merchantAccount,
    currency: donation.currency,
    value: donation.authorisedValue,
  });
}

/**
 * A donation charged to the card of an authorised payment, by that payment's donation token:
 * a new payment of the same card, shopper and merchant account. The original payment is locked
 * while its token is checked and used, so that a token pays for one donation only.
 */
async function chargeOriginalCard(ctx: PaymentContext, merchant: Merchant, input: DonationInput, campaign: Campaign): Promise<PaymentOutcome> {
  const { tx, now } = ctx;
  const { donationToken: token, donationOriginalPspReference: psp } = input;
  if (token === undefined || psp === undefined) {
    throw new ApiError(ERR_DONATION_TOKEN, { message: 'Invalid donationToken: send it together with donationOriginalPspReference, the payment it came with' });
  }
  const original = await tx.payments.getForUpdate(psp);
  const valid =
    original !== undefined &&
    original.merchantAccount === merchant.id &&
    original.resultCode === 'Authorised' &&
    original.paymentMethodType === 'scheme' &&
    sameToken(donationTokenOf(original), token) &&
    // A donation's own payment offers no further donation.
    (await tx.donations.ofPayment(original.pspReference)) === undefined;
  if (!valid) throw new ApiError(ERR_DONATION_TOKEN);
  if (await tx.donations.ofOriginalPayment(original.pspReference)) throw new ApiError(ERR_DONATION_TOKEN_USED);

  const expired = isExpired({ expiryMonth: Number(original.expiryMonth), expiryYear: Number(original.expiryYear) }, now);
  const delay = captureDelayHours(merchant);
  const payment: Payment = {
    ...original,
    pspReference: newPspReference(),
    reference: input.reference,
    currency: input.amount.currency,
    authorisedValue: input.amount.value,
    originalValue: input.amount.value,
    capturedValue: 0,
    refundedValue: 0,
    chargedBackValue: 0,
    resultCode: expired ? 'Refused' : 'Authorised',
    refusalReason: expired ? EXPIRED_CARD.reason : null,
    refusalReasonCode: expired ? EXPIRED_CARD.code : null,
    authCode: expired ? null : newAuthCode(),
    cancelled: false,
    captureClosed: false,
    autoCaptured: false,
    captureDelayHours: delay,
    autoCaptureAt: !expired && delay !== null ? new Date(now.getTime() + delay * HOUR_MS).toISOString() : null,
    multiplePartialCaptures: merchant.multiplePartialCaptures,
    shopperReference: input.shopperReference ?? original.shopperReference,
    returnUrl: input.returnUrl,
    orderPspReference: null,
    detailsSubmitted: false,
    paymentData: null,
    sessionId: null,
    paymentLinkId: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.payments.insert(payment);
  await reportDonation(tx, now, payment, campaign, original.pspReference);
  // A merchant account that captures at once captures the donation at once (with its CAPTURE event).
  return { payment: await settleDueCapture(tx, now, payment), order: undefined };
}

/** A donation charged to a stored card of the shopper: a payment with the token, as /payments makes one. */
async function chargeStoredCard(ctx: PaymentContext, credential: Credential, input: DonationInput): Promise<PaymentOutcome> {
  const stored = input.paymentMethod?.storedPaymentMethodId ?? input.paymentMethod?.recurringDetailReference;
  if (stored === undefined) throw new ApiError(ERR_DONATION_SOURCE);
  return makePayment(ctx, credential, {
    merchantAccount: input.merchantAccount,
    reference: input.reference,
    returnUrl: input.returnUrl,
    amount: input.amount,
    paymentMethod: { type: 'scheme', storedPaymentMethodId: stored },
    ...(input.shopperReference !== undefined && { shopperReference: input.shopperReference }),
  });
}

const statusOf = (payment: Payment): Donation['status'] =>
  payment.resultCode === 'Authorised' ? 'completed' : payment.resultCode === 'Refused' ? 'refused' : 'pending';

/**
 * POST /donations: for an active campaign and an amount it offers, charged to the card of an
 * authorised payment (its donation token) or to a stored card of the shopper, and recorded with
 * the payment that charged it.
 */
export async function donate(ctx: PaymentContext, credential: Credential, input: DonationInput): Promise<{ donation: Donation; outcome: PaymentOutcome }> {
  const merchant = await requireMerchantAccount(ctx.tx, credential, input.merchantAccount);
  const campaign = campaignOf(ctx.now, input);
  checkAmount(campaign, input.amount);
  const byToken = input.donationToken !== undefined || input.donationOriginalPspReference !== undefined;
  const outcome = byToken ? await chargeOriginalCard(ctx, merchant, input, campaign) : await chargeStoredCard(ctx, credential, input);
  const donation: Donation = {
    id: newPspReference(),
    companyId: merchant.companyId,
    merchantAccount: merchant.id,
    campaignId: campaign.id,
    donationAccount: campaign.donationAccount,
    paymentPspReference: outcome.payment.pspReference,
    originalPspReference: byToken ? (input.donationOriginalPspReference ?? null) : null,
    reference: input.reference,
    currency: input.amount.currency,
    value: input.amount.value,
    status: statusOf(outcome.payment),
    createdAt: ctx.now.toISOString(),
  };
  await ctx.tx.donations.insert(donation);
  return { donation, outcome };
}
