import { ApiError, ERR_FIELD_INVALID, ERR_FIELD_REQUIRED } from '../../kernel/errors.js';

/** A line item as the pay-later methods need it: what it costs with tax, and how many. */
interface PricedItem {
  amountIncludingTax?: unknown;
  quantity?: unknown;
}

/**
 * Checks that line items price an amount: each item has `amountIncludingTax` and `quantity`,
 * and together they add up to the amount (Klarna shows the shopper the items, and bills them).
 * `field` names the list in errors (`lineItems`).
 */
export function assertItemsPrice(items: PricedItem[] | undefined, amount: number, field = 'lineItems'): void {
  if (!items || items.length === 0) throw new ApiError(ERR_FIELD_REQUIRED, { message: `Required field '${field}' is not provided` });
  let total = 0;
  items.forEach((item, i) => {
    for (const key of ['amountIncludingTax', 'quantity'] as const) {
      if (typeof item[key] !== 'number') throw new ApiError(ERR_FIELD_REQUIRED, { message: `Required field '${field}[${i}].${key}' is not provided` });
    }
    total += (item.amountIncludingTax as number) * (item.quantity as number);
  });
  if (total !== amount) {
    throw new ApiError(ERR_FIELD_INVALID, { message: `Invalid field '${field}': the items add up to ${total}, not the amount ${amount}` });
  }
}
