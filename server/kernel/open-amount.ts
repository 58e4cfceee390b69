import type { Payment } from '../store/types.js';

/**
 * What of a payment's captured money is still the merchant's: captured, less refunded, less
 * charged back. A refund, a reversal or an order's cancel gives back at most this, and a
 * chargeback takes at most this (the database keeps it ≥ 0). Checkout decides with it; the
 * console shows it as the most a refund may take.
 */
export const openAmount = (p: Pick<Payment, 'capturedValue' | 'refundedValue' | 'chargedBackValue'>): number =>
  p.capturedValue - p.refundedValue - p.chargedBackValue;
