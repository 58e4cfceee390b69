/**
 * What a session or payment link keeps of its request, which it answers back later as Adyen's
 * do: every field, except what must not be kept.
 *
 * - A shopper telephone number that is not a plus sign, a country code of 1 to 3 digits and
 *   then 4 to 15 digits is not submitted for authentication (design sections 2.6 and 2.12):
 *   it is dropped, and the request is not refused for it.
 * - The card details of a fund recipient (`fundRecipient.paymentMethod`) are dropped: a full
 *   card number or security code is never stored or answered back.
 */
const SUBMITTABLE_TELEPHONE = /^\+[0-9]{1,3}[0-9]{4,15}$/;

export function isSubmittableTelephoneNumber(value: string): boolean {
  return SUBMITTABLE_TELEPHONE.test(value);
}

interface KeepableFields {
  telephoneNumber?: string | undefined;
  fundRecipient?: { paymentMethod?: unknown } | undefined;
}

/** The request fields to keep: the same object when nothing is dropped. */
export function keptFields<T extends KeepableFields>(fields: T): T {
  let kept = fields;
  if (kept.telephoneNumber !== undefined && !isSubmittableTelephoneNumber(kept.telephoneNumber)) {
    const { telephoneNumber: _dropped, ...rest } = kept;
    kept = rest as T;
  }
  if (kept.fundRecipient?.paymentMethod !== undefined) {
    const { paymentMethod: _card, ...recipient } = kept.fundRecipient;
    kept = { ...kept, fundRecipient: recipient };
  }
  return kept;
}
