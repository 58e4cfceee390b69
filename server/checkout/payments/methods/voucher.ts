import { randomInt } from 'node:crypto';
import { ApiError, ERR_FIELD_REQUIRED, ERR_METHOD_NOT_SUPPORTED } from '../../../kernel/errors.js';
import type { Payment } from '../../../store/types.js';
import { authorise, closeOffer, isFinal } from '../authorisation.js';
import { type PaymentMethodFlow, type StartContext, textOf, plainMethodResponse } from './method.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The sandbox's Multibanco entity (the payee the shopper's bank shows). */
export const MULTIBANCO_ENTITY = '12345';
export const MULTIBANCO_LIFETIME_MS = 3 * DAY_MS;
export const BOLETO_LIFETIME_MS = 5 * DAY_MS;

const BOLETO_TYPES = [
  'boletobancario',
  'boletobancario_bradesco',
  'boletobancario_itau',
  'boletobancario_santander',
  'boletobancario_bancodobrasil',
  'boletobancario_hsbc',
  'primeiropay_boleto',
];

const digits = (count: number) => Array.from({ length: count }, () => randomInt(0, 10)).join('');

/** A Boleto needs the payer's name, CPF or CNPJ and billing address, and Brazilian reais. */
function assertBoletoRequest(ctx: StartContext): void {
  const { input } = ctx;
  if (input.amount.currency !== 'BRL') throw new ApiError(ERR_METHOD_NOT_SUPPORTED, { message: 'Payment details are not supported: Boleto takes BRL only' });
  for (const [field, present] of [
    ['shopperName', input.shopperName !== undefined],
    ['socialSecurityNumber', input.socialSecurityNumber !== undefined],
    ['billingAddress', input.billingAddress !== undefined],
  ] as const) {
    if (!present) throw new ApiError(ERR_FIELD_REQUIRED, { message: `Required field '${field}' is not provided` });
  }
}

/**
 * Vouchers the shopper pays offline (Multibanco, Boleto bancário): PresentToShopper with a
 * `voucher` action. The sandbox's voucher page (`downloadUrl`) has a button that pays it
 * (sandbox only); the payment is then authorised and captured by the dispatcher. An unpaid
 * voucher closes at its expiry (OFFER_CLOSED). Multibanco expires after 3 days, Boleto after 5.
 */
export const voucherFlow: PaymentMethodFlow = {
  types: ['multibanco', ...BOLETO_TYPES],

  start(ctx, pending) {
    const type = String(ctx.input.paymentMethod.type);
    const boleto = BOLETO_TYPES.includes(type);
    if (boleto) assertBoletoRequest(ctx);
    const expiresAt = new Date(ctx.now.getTime() + (boleto ? BOLETO_LIFETIME_MS : MULTIBANCO_LIFETIME_MS)).toISOString();
    const voucher = boleto
      ? { reference: digits(47), expiresAt, shopperName: `${ctx.input.shopperName!.firstName} ${ctx.input.shopperName!.lastName}` }
      : { reference: digits(9), entity: MULTIBANCO_ENTITY, expiresAt };
    const payment: Payment = {
      ...pending,
      paymentMethodType: type,
      resultCode: 'PresentToShopper',
      captureDelayHours: 0,
      settleAt: expiresAt,
      methodState: { voucher, merchantName: ctx.merchant.name },
    };
    return Promise.resolve({ payment });
  },

  // Paid on the voucher page: authorised; still unpaid at the expiry: the offer closes.
  settle(ctx, payment) {
    if (isFinal(payment)) return Promise.resolve({ ...payment, settleAt: null });
    return Promise.resolve(payment.methodState.paid === true ? authorise(payment, ctx.now) : closeOffer(payment, ctx.now));
  },

  action(payment, baseUrl) {
    if (payment.resultCode !== 'PresentToShopper') return undefined;
    const voucher = payment.methodState.voucher as { reference: string; entity?: string; expiresAt: string; shopperName?: string };
    const amount = { currency: payment.currency, value: payment.originalValue };
    const page = `${baseUrl}/hosted/vouchers/${payment.pspReference}`;
    return {
      type: 'voucher',
      paymentMethodType: payment.paymentMethodType,
      reference: voucher.reference,
      ...(voucher.entity && { entity: voucher.entity }),
      ...(voucher.shopperName && { shopperName: voucher.shopperName }),
      expiresAt: voucher.expiresAt,
      initialAmount: amount,
      totalAmount: amount,
      merchantName: textOf(payment.methodState.merchantName) || payment.merchantAccount,
      merchantReference: payment.reference,
      downloadUrl: page,
      url: page,
    };
  },

  ...plainMethodResponse,
};
