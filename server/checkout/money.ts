import type { Payment } from '../store/types.js';

/** An amount in minor units of a currency (the wire `Amount`). */
export interface Money {
  currency: string;
  value: number;
}

/**
 * What of a payment's captured money is still the merchant's: captured, less refunded, less
 * charged back. A refund, a reversal or an order's cancel gives back at most this, and a
 * chargeback takes at most this (the database keeps it ≥ 0).
 */
export const openAmount = (p: Payment): number => p.capturedValue - p.refundedValue - p.chargedBackValue;
