import { ApiError, ERR_INVALID_HOLDER_NAME, ERR_INVALID_IBAN } from '../../../kernel/errors.js';
import type { Payment } from '../../../store/types.js';
import { authorise, isFinal, refuse } from '../authorisation.js';
import type { Refusal } from '../cards.js';
import { TEST_REFUSALS } from '../test-results.js';
import { ibanProblem, maskIban, normaliseIban } from '../iban.js';
import { type MethodOf, type PaymentMethodFlow, textOf } from './method.js';

/** A direct debit settles with the shopper's bank one day after it was received (sandbox). */
export const SEPA_SETTLES_AFTER_MS = 24 * 60 * 60 * 1000;

/** Accounts without funds (valid IBANs whose account number is all zeros): the debit is refused. */
export const EMPTY_ACCOUNT_IBANS = ['NL85ABNA0000000000', 'DE27500105170000000000'];

/**
 * The refusal the sandbox decides for a debit: a holder name of the card test table whose result
 * is Refused, as owner name (a debit has no Error or Cancelled outcome here), then the empty accounts.
 */
function refusalOf(iban: string, ownerName: string): Refusal | undefined {
  const named = TEST_REFUSALS[ownerName];
  if (named && (named.resultCode ?? 'Refused') === 'Refused') return named;
  return EMPTY_ACCOUNT_IBANS.includes(iban) ? TEST_REFUSALS.NOT_ENOUGH_BALANCE : undefined;
}

/**
 * SEPA Direct Debit: the IBAN (checksum, country, length) and the owner's name are checked at
 * once; the debit is then Received, and its outcome comes a day later on the sandbox clock as an
 * AUTHORISATION event (refused for the test names and empty accounts). Only the masked IBAN is kept.
 */
export const sepaFlow: PaymentMethodFlow = {
  types: ['sepadirectdebit', 'sepadirectdebit_amazonpay'],

  start(ctx, pending) {
    const method = ctx.input.paymentMethod as MethodOf<'sepadirectdebit' | 'sepadirectdebit_amazonpay'>;
    const iban = normaliseIban(textOf(method.iban));
    const problem = ibanProblem(iban);
    if (problem) throw new ApiError(ERR_INVALID_IBAN, { message: `Invalid iban: ${problem}` });
    const ownerName = textOf(method.ownerName).trim();
    if (ownerName.length < 2 || /\d/.test(ownerName)) {
      throw new ApiError(ERR_INVALID_HOLDER_NAME, { message: "Invalid Bank account holder name: 'ownerName' needs at least two letters and no digits" });
    }
    const refusal = refusalOf(iban, ownerName);
    const payment: Payment = {
      ...pending,
      paymentMethodType: String(ctx.input.paymentMethod.type ?? 'sepadirectdebit'),
      resultCode: 'Received',
      holderName: ownerName,
      settleAt: new Date(ctx.now.getTime() + SEPA_SETTLES_AFTER_MS).toISOString(),
      methodState: { iban: maskIban(iban), ownerName, ...(refusal && { refusal }) },
    };
    return Promise.resolve({ payment });
  },

  settle(ctx, payment) {
    if (isFinal(payment)) return Promise.resolve({ ...payment, settleAt: null });
    const refusal = payment.methodState.refusal as Refusal | undefined;
    return Promise.resolve(refusal ? refuse(payment, refusal, ctx.now) : authorise(payment, ctx.now));
  },

  additionalData: (payment) => ({
    paymentMethod: payment.paymentMethodType,
    'sepadirectdebit.ibanNumber': textOf(payment.methodState.iban),
    'sepadirectdebit.ownerName': textOf(payment.methodState.ownerName),
  }),

  responseMethod: (payment) => ({ type: payment.paymentMethodType }),
};
