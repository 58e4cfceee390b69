import { createHash, randomBytes } from 'node:crypto';
import { reaches } from '../../kernel/auth/credentials.js';
import { ApiError, ERR_APPLE_PAY_DOMAIN, ERR_APPLE_PAY_MERCHANT } from '../../kernel/errors.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';

const HOUR_MS = 60 * 60 * 1000;
/** How this service spells a merchant account's Apple Pay merchant identifier. */
export const APPLE_PAY_MERCHANT_PREFIX = 'merchant.';

export interface ApplePaySessionInput {
  displayName: string;
  domainName: string;
  merchantIdentifier: string;
}

/** Signs the session, as Apple's payment server would with its certificate. */
export type Mac = (text: string) => string;

/**
 * POST /applePay/sessions: a test Apple Pay merchant session for a merchant account the
 * credential reaches, with an enabled Apple Pay setting, from one of that setting's domains.
 * Its JSON has the fields and types of Apple's merchant session, base64-encoded as Adyen hands
 * it on; nothing is stored.
 */
export async function applePaySession(tx: Tx, now: Date, credential: Credential, input: ApplePaySessionInput, mac: Mac): Promise<string> {
  const identifier = input.merchantIdentifier;
  const merchantId = identifier.startsWith(APPLE_PAY_MERCHANT_PREFIX) ? identifier.slice(APPLE_PAY_MERCHANT_PREFIX.length) : identifier;
  const merchant = await tx.merchants.get(merchantId);
  // Another company's merchant account is as unknown as one that does not exist.
  if (!merchant || !reaches(credential, merchant)) {
    throw new ApiError(ERR_APPLE_PAY_MERCHANT, { message: `Unknown merchantIdentifier '${identifier}': it names no merchant account this credential reaches` });
  }
  const settings = (await tx.paymentMethodSettings.list(merchant.id)).filter((s) => s.type === 'applepay' && s.enabled);
  if (settings.length === 0) {
    throw new ApiError(ERR_APPLE_PAY_MERCHANT, { message: `Apple Pay is not enabled for merchant account ${merchant.id}` });
  }
  const domains = settings.flatMap((s) => (s.details.applePay as { domains?: string[] } | undefined)?.domains ?? []).map((d) => d.toLowerCase());
  if (!domains.includes(input.domainName.toLowerCase())) {
    throw new ApiError(ERR_APPLE_PAY_DOMAIN, {
      message: `Invalid field 'domainName': ${input.domainName} is not an Apple Pay domain of merchant account ${merchant.id} (add it with the Management API's addApplePayDomains)`,
    });
  }
  const merchantHash = createHash('sha256').update(identifier).digest('hex').toUpperCase();
  const epochTimestamp = now.getTime();
  const nonce = randomBytes(4).toString('hex');
  const sessionId = `SSH${randomBytes(16).toString('hex').toUpperCase()}_${randomBytes(4).toString('hex').toUpperCase()}`;
  const session = {
    epochTimestamp,
    expiresAt: epochTimestamp + HOUR_MS,
    merchantSessionIdentifier: sessionId,
    nonce,
    merchantIdentifier: merchantHash,
    domainName: input.domainName,
    displayName: input.displayName,
    signature: Buffer.from(mac(`apple-pay|${sessionId}|${nonce}|${merchantHash}|${input.domainName}`), 'base64url').toString('hex'),
    operationalAnalyticsIdentifier: `${input.displayName}:${merchantHash}`,
    retries: 0,
    pspId: merchantHash,
  };
  return Buffer.from(JSON.stringify(session)).toString('base64');
}
