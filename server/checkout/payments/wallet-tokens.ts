import type { CardInput } from './cards.js';

/**
 * The wallet tokens the sandbox takes (Apple Pay's `applePayToken`, Google Pay's
 * `googlePayToken`). A test token names a test card: JSON (for Google Pay as sent, or
 * base64-encoded) with the card's `number`, `expiryMonth`, `expiryYear` and optional
 * `holderName` (the card test names refuse as for cards). Any other token, such as a real one
 * from the wallet's sheet, pays with the default test card of the network (Visa unless Google
 * Pay names another). Nothing of a token is kept.
 */
export interface WalletCard extends CardInput {
  number: string;
  expiryMonth: string;
  expiryYear: string;
}

/** The default test card of each network, as Google Pay names networks. */
const NETWORK_CARDS: Readonly<Record<string, string>> = {
  VISA: '4111111111111111',
  MASTERCARD: '5555555555554444',
  AMEX: '370000000000002',
  DISCOVER: '6011111111111117',
  JCB: '3569990010095841',
  INTERAC: '4111111111111111',
};

const DEFAULT_EXPIRY = { expiryMonth: '03', expiryYear: '2030' } as const;

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON a token carries, whether sent as JSON or as base64 of JSON. */
function tokenJson(token: string): Record<string, unknown> | undefined {
  return parseJson(token) ?? parseJson(Buffer.from(token, 'base64').toString('utf8'));
}

/** The card a wallet token pays with. */
export function cardOfWalletToken(token: string, network?: string): WalletCard {
  const json = tokenJson(token);
  const text = (key: string) => (typeof json?.[key] === 'string' ? json[key] : undefined);
  const number = text('number');
  if (number) {
    const holderName = text('holderName');
    return {
      number,
      expiryMonth: text('expiryMonth') ?? DEFAULT_EXPIRY.expiryMonth,
      expiryYear: text('expiryYear') ?? DEFAULT_EXPIRY.expiryYear,
      ...(holderName && { holderName }),
    };
  }
  return { number: NETWORK_CARDS[(network ?? 'VISA').toUpperCase()] ?? NETWORK_CARDS.VISA!, ...DEFAULT_EXPIRY };
}

/** A test token for a card (what docs/sandbox-test-data.md documents): base64 of its JSON. */
export const testWalletToken = (card: { number: string; expiryMonth?: string; expiryYear?: string; holderName?: string }): string =>
  Buffer.from(JSON.stringify(card)).toString('base64');
