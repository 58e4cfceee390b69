/** The API credential roles (Adyen's names). Management roles carry the prefix `Management API - `. */
export const ROLES = {
  checkout: 'Checkout webservice role',
  merchantPal: 'Merchant PAL Webservice role',
  accountsRead: 'Management API - Accounts read',
  accountsReadWrite: 'Management API - Accounts read and write',
  apiCredentialsReadWrite: 'Management API - API credentials read and write',
  androidFilesRead: 'Management API - Android files read',
  androidFilesReadWrite: 'Management API - Android files read and write',
  terminalActionsRead: 'Management API - Terminal actions read',
  terminalActionsReadWrite: 'Management API - Terminal actions read and write',
  terminalSettingsRead: 'Management API - Terminal settings read',
  terminalSettingsReadWrite: 'Management API - Terminal settings read and write',
  terminalSettingsAdvancedReadWrite: 'Management API - Terminal settings Advanced read and write',
  splitConfigurationReadWrite: 'Management API - SplitConfiguration read and write',
  payoutSettingsRead: 'Management API - Payout Account Settings Read',
  payoutSettingsReadWrite: 'Management API - Payout Account Settings Read And Write',
  paymentMethodsRead: 'Management API - Payment methods read',
  paymentMethodsReadWrite: 'Management API - Payment methods read and write',
  webhooksRead: 'Management API - Webhooks read',
  webhooksReadWrite: 'Management API - Webhooks read and write',
  storesRead: 'Management API - Stores read',
  storesReadWrite: 'Management API - Stores read and write',
  assignTerminal: 'Management API - Assign Terminal',
  usersReadWrite: 'Management API - Users read and write',
} as const;

export type Role = (typeof ROLES)[keyof typeof ROLES];

/**
 * Adyen's other API credential roles, as its role tables (docs.adyen.com, Development resources →
 * API credentials → Roles) and the Management API's examples name them. A credential may hold
 * them: they are stored, listed and shown, and granted under the rule of every role (only by a
 * caller that holds them). Nothing in this service asks for them, so they have no effect here:
 * it has no Recurring, Payout, Report download, Data Protection or terminal ordering API, takes
 * card data (raw or `test_`-encrypted) with the checkout roles alone, and needs no role for 3D
 * Secure, donations, iDEAL or refunds with data.
 */
export const ADYEN_ROLES = [
  'Merchant Recurring role',
  'Checkout encrypted cardholder data',
  'Data Protection API',
  'API PCI Payments role',
  'API Payment RefundWithData',
  'API Clientside Encryption Payments role',
  'API tokenise payment details',
  'General API Payments role',
  'API Supply MPI data with Payments',
  'API Authorise Referred Payments',
  'API to retrieve authentication data',
  'API surcharge cost estimation and regulatory information',
  'CSC Tokenization Webservice role',
  'ThreeDSecure WebService Role',
  'Mastercard inControl service',
  'Merchant iDeal-API Webservice role',
  'Merchant PAL Donation role',
  'Merchant PAL Charity role',
  'Merchant Payout role',
  'Store payout detail',
  'Store payout detail and submit payout - withdrawal',
  'Merchant Report Download role',
  'Merchant Rss feed role',
  'Management API - Terminal ordering read',
  'Management API - Terminal ordering read and write',
] as const;

/** The roles this service acts on (an operation asks for one of them). */
export const SERVICE_ROLES: Role[] = Object.values(ROLES);
/** Every role a credential can hold: the service's own, then Adyen's others (no effect here). */
export const ALL_ROLES: readonly string[] = [...SERVICE_ROLES, ...ADYEN_ROLES];
export const CHECKOUT_ROLES: Role[] = [ROLES.checkout, ROLES.merchantPal];
export const MANAGEMENT_ROLES: Role[] = SERVICE_ROLES.filter((r) => r.startsWith('Management API - '));

/** Where the known role names come from, for messages that refuse another. */
export const KNOWN_ROLES_SOURCE =
  "this service's roles and the other API credential roles Adyen documents (https://docs.adyen.com/development-resources/api-credentials/roles), as the ApiCredentialRole schema of the Management API reference lists them";

/** A name's spelling-blind key: Adyen writes `Management API - X`, `Management API—X` and `Management API — X`, and varies the case. */
const keyOf = (name: string) =>
  name
    .trim()
    .replace(/^Management API\s*[-\u2013\u2014]\s*/i, 'Management API - ')
    .replace(/\s+/g, ' ')
    .toLowerCase();
const BY_KEY = new Map(ALL_ROLES.map((role) => [keyOf(role), role]));

/**
 * The role a name stands for, spelled as this service stores it (the dash after "Management API",
 * the spacing and the letter case do not matter); undefined for a name that is not a known role.
 */
export const knownRole = (name: string): string | undefined => BY_KEY.get(keyOf(name));

/**
 * What an operation needs: any one of the listed roles; `anyManagementRole`; or
 * `authenticated` (any valid credential, e.g. for its own details).
 */
export type Requirement = readonly Role[] | 'anyManagementRole' | 'authenticated';

export function satisfies(roles: readonly string[], requirement: Requirement): boolean {
  if (requirement === 'authenticated') return true;
  const accepted = requirement === 'anyManagementRole' ? MANAGEMENT_ROLES : requirement;
  return accepted.some((role) => roles.includes(role));
}

export function describeRequirement(requirement: Requirement): string {
  if (requirement === 'authenticated') return 'a valid credential';
  if (requirement === 'anyManagementRole') return 'any Management API role';
  return `one of the roles ${requirement.join(', ')}`;
}
