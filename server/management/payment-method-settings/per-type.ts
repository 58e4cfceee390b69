/**
 * The per-type objects of payment method settings (`klarna`, `applePay`, `givex`, …): which
 * `type` each belongs to, how a partial update is merged, and how secrets inside them are kept
 * (encrypted at rest, masked in answers). The spec checks each object's own fields; this module
 * checks what a schema cannot: that the object matches the setting's `type`.
 */
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { invalidField } from '../../kernel/errors.js';

const ALIPAY_PLUS = [
  'alipay_plus',
  'alipay_plus_alipay_cn',
  'alipay_plus_alipay_hk',
  'alipay_plus_dana',
  'alipay_plus_gcash',
  'alipay_plus_kakaopay',
  'alipay_plus_kplus',
  'alipay_plus_naverpay',
  'alipay_plus_rabbitlinepay',
  'alipay_plus_tosspay',
  'alipay_plus_touchngo',
  'alipay_plus_truemoney',
];

/**
 * Object property → the setting types it may come with. Most objects belong to one type of the
 * same name; the exceptions are named by Adyen's wire format (`afterpayTouch` for `afterpaytouch`,
 * `cartesBancaires` for `cartebancaire`, one `klarna` object for every Klarna variant, …).
 * `sofort` has no type any more (Adyen dropped the variant): its object is always refused.
 */
export const OBJECT_TYPES: Readonly<Record<string, readonly string[]>> = {
  accel: ['accel'],
  affirm: ['affirm'],
  afterpayTouch: ['afterpaytouch'],
  alipayPlus: ALIPAY_PLUS,
  amex: ['amex'],
  applePay: ['applepay'],
  bcmc: ['bcmc'],
  carnet: ['carnet'],
  cartesBancaires: ['cartebancaire'],
  clearpay: ['clearpay'],
  cup: ['cup'],
  diners: ['diners'],
  discover: ['discover'],
  eft_directdebit_CA: ['eft_directdebit_CA'],
  eftpos_australia: ['eftpos_australia'],
  girocard: ['girocard'],
  givex: ['givex'],
  googlePay: ['googlepay'],
  ideal: ['ideal'],
  interac_card: ['interac_card'],
  jcb: ['jcb'],
  klarna: ['klarna', 'klarna_account', 'klarna_b2b', 'klarna_paynow'],
  maestro: ['maestro'],
  maestro_usa: ['maestro_usa'],
  mc: ['mc'],
  mealVoucher_FR: ['mealVoucher_FR'],
  nyce: ['nyce'],
  paybybank_plaid: ['paybybank_plaid'],
  payme: ['payme', 'payme_pos'],
  paypal: ['paypal'],
  payto: ['payto'],
  pulse: ['pulse'],
  sepadirectdebit: ['sepadirectdebit'],
  sodexo: ['sodexo'],
  sofort: [],
  star: ['star'],
  svs: ['svs'],
  swish: ['swish'],
  ticket: ['ticket'],
  twint: ['twint', 'twint_pos'],
  valuelink: ['valuelink'],
  vipps: ['vipps'],
  visa: ['visa'],
  wechatpay: ['wechatpay'],
  wechatpay_pos: ['wechatpay_pos'],
};

export const OBJECT_KEYS = Object.keys(OBJECT_TYPES);

/** Fields that are secrets: stored encrypted (the service would hand them to the acquirer), answered as MASK. */
const SECRETS: Readonly<Record<string, readonly string[]>> = { givex: ['password'] };

/** What answers show in place of a secret: fixed, so it tells nothing about the value (not even its length). */
export const MASK = '********';

/** Where the encrypted value of a secret field lives inside its stored object. */
const sealedName = (field: string) => `${field}Encrypted`;

type Details = Record<string, Record<string, unknown>>;

/** The per-type objects of a request body, in the order of OBJECT_KEYS. */
export function objectsOf(input: object): Details {
  const given = input as Record<string, unknown>;
  return Object.fromEntries(OBJECT_KEYS.filter((k) => given[k] !== undefined && given[k] !== null).map((k) => [k, given[k] as Record<string, unknown>]));
}

/** An object as an error may echo it: secret fields as MASK. */
function withoutSecrets(key: string, value: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...value };
  for (const field of SECRETS[key] ?? []) if (shown[field] !== undefined) shown[field] = MASK;
  return shown;
}

/** Refuses (422 naming the object) a per-type object that does not belong to `type`. */
export function checkObjectsMatch(type: string, objects: Details): void {
  for (const key of Object.keys(objects)) {
    const types = OBJECT_TYPES[key] ?? [];
    if (!types.includes(type)) {
      const belongs = types.length > 0 ? `it belongs to type ${types.map((t) => `'${t}'`).join(' or ')}` : 'no type takes it any more';
      throw invalidField(key, JSON.stringify(withoutSecrets(key, objects[key]!)), `does not match type '${type}': ${belongs}`);
    }
  }
}

/** The objects as stored: each secret field replaced by its encryption. */
export function sealSecrets(objects: Details, vault: CardVault): Details {
  return Object.fromEntries(
    Object.entries(objects).map(([key, value]) => {
      const sealed = { ...value };
      for (const field of SECRETS[key] ?? []) {
        if (typeof sealed[field] !== 'string') continue;
        sealed[sealedName(field)] = vault.encrypt(sealed[field]);
        delete sealed[field];
      }
      return [key, sealed];
    }),
  );
}

/** The stored objects as answered: each encrypted secret shown as MASK, never decrypted. */
export function maskSecrets(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => {
      const secrets = SECRETS[key];
      if (!secrets || typeof value !== 'object' || value === null) return [key, value];
      const shown: Record<string, unknown> = { ...value };
      for (const field of secrets) {
        if (shown[sealedName(field)] !== undefined) shown[field] = MASK;
        delete shown[sealedName(field)];
      }
      return [key, shown];
    }),
  );
}

/**
 * Required fields of the objects an update can bring without them (Adyen's update request carries
 * most objects as the statement text only): after merging, a stored object must still have them.
 */
const REQUIRED_AFTER_UPDATE: Readonly<Record<string, readonly string[]>> = {
  accel: ['processingType'],
  nyce: ['processingType'],
  pulse: ['processingType'],
  star: ['processingType'],
  affirm: ['supportEmail'],
  cartesBancaires: ['siret'],
};

/**
 * An update's objects merged field by field into the stored ones. A statement text alone cannot
 * make an object the setting does not have yet when that object has other required fields (an
 * Accel object without its processing type): 422 naming the missing field. Diners is the
 * exception: its one required field is a flag, and a Diners setting made without its object
 * reuses no mid number (`false`).
 */
export function mergeObjects(stored: Record<string, unknown>, update: Details): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    const before = (stored[key] ?? {}) as Record<string, unknown>;
    const after: Record<string, unknown> = key === 'diners' ? { reuseMidNumber: false, ...before, ...value } : { ...before, ...value };
    const missing = (REQUIRED_AFTER_UPDATE[key] ?? []).find((field) => after[field] === undefined);
    if (missing)
      throw invalidField(`${key}.${missing}`, '', `is required: this setting was set up without its ${key} object, and an update cannot supply this field`);
    merged[key] = after;
  }
  return merged;
}
