export type ShopperIdResult = 'VALID' | 'INVALID' | 'UNKNOWN' | 'NOT_REQUIRED';

export interface ShopperIdInput {
  paymentMethod: { type: 'payTo' | 'upi_collect'; virtualPaymentAddress?: string | undefined };
}

/** A UPI virtual payment address: a name, `@`, and the handle of the payer's bank or app. */
const VIRTUAL_PAYMENT_ADDRESS = /^[A-Za-z0-9._-]{2,256}@([A-Za-z][A-Za-z0-9]{1,63})$/;
/** The test bank whose addresses the scheme cannot confirm. */
export const UNKNOWN_UPI_HANDLE = 'unknown';

/**
 * POST /validateShopperId: whether the shopper identifier can be paid from. The sandbox checks
 * the form of a UPI address (the test handle `@unknown` gives UNKNOWN); PayTo payers confirm
 * their agreement in their banking app, so there is nothing to check first.
 */
export function validateShopperId(input: ShopperIdInput): { result: ShopperIdResult; reason?: string } {
  if (input.paymentMethod.type === 'payTo') {
    return { result: 'NOT_REQUIRED', reason: 'PayTo payers confirm the agreement in their banking app; there is nothing to check beforehand' };
  }
  const address = input.paymentMethod.virtualPaymentAddress;
  if (address === undefined) return { result: 'INVALID', reason: 'No virtualPaymentAddress to check' };
  const handle = VIRTUAL_PAYMENT_ADDRESS.exec(address)?.[1];
  if (handle === undefined) return { result: 'INVALID', reason: 'The virtual payment address is not of the form name@bank' };
  if (handle.toLowerCase() === UNKNOWN_UPI_HANDLE) return { result: 'UNKNOWN', reason: 'The bank could not confirm the virtual payment address' };
  return { result: 'VALID' };
}
