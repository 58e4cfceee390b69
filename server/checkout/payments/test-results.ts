import type { Refusal } from './cards.js';

/**
 * Adyen's values for testing refusal reasons, as one table: a card payment whose `holderName` is
 * a row's name, or whose `additionalData.RequestedTestAcquirerResponseCode` is a row's code, gets
 * that row's resultCode, refusalReason and refusalReasonCode (the code itself) instead of an
 * authorisation (docs.adyen.com/development-resources/testing/result-codes, "Values for testing
 * refusal reasons"; the reason texts are those of development-resources/refusal-reasons). Rows
 * 0–16 are checked against that table as its Classic API page prints it; the later rows against
 * the copies of it in public integrations' tests, so theirs is the spelling to check first if
 * Adyen answers otherwise. Code 30 has no row. docs/sandbox-test-data.md
 * shows the table to integrators; test/contract/checkout/testRefusals.test.ts pays with every row.
 */
export interface TestResult {
  /** The `holderName` that asks for this row (Adyen's spelling). */
  holderName: string;
  /** The `RequestedTestAcquirerResponseCode` that asks for it; also the refusalReasonCode answered. */
  code: number;
  resultCode: 'Authorised' | 'Refused' | 'Error' | 'Received' | 'Cancelled';
  /** The refusalReason answered; none for Authorised and Received. */
  refusalReason: string | null;
  /** Further holder names of the row: this sandbox's own older spellings, kept working. */
  aliases?: readonly string[];
}

const row = (code: number, holderName: string, resultCode: TestResult['resultCode'], refusalReason: string | null, aliases?: string[]): TestResult => ({
  code,
  holderName,
  resultCode,
  refusalReason,
  ...(aliases && { aliases }),
});

export const TEST_RESULTS: readonly TestResult[] = [
  row(0, 'UNKNOWN', 'Error', 'Unknown'),
  row(1, 'APPROVED', 'Authorised', null),
  // REFUSED is this sandbox's older name for the generic refusal; Adyen's is DECLINED.
  row(2, 'DECLINED', 'Refused', 'Refused', ['REFUSED']),
  row(3, 'REFERRAL', 'Refused', 'Referral'),
  row(4, 'ERROR', 'Error', 'Acquirer Error'),
  row(5, 'BLOCK_CARD', 'Refused', 'Blocked Card'),
  row(6, 'CARD_EXPIRED', 'Refused', 'Expired Card'),
  row(7, 'INVALID_AMOUNT', 'Refused', 'Invalid Amount'),
  row(8, 'INVALID_CARD_NUMBER', 'Refused', 'Invalid Card Number'),
  row(9, 'ISSUER_UNAVAILABLE', 'Refused', 'Issuer Unavailable'),
  row(10, 'NOT_SUPPORTED', 'Refused', 'Not supported'),
  row(11, 'NOT_3D_AUTHENTICATED', 'Refused', '3D Not Authenticated'),
  row(12, 'NOT_ENOUGH_BALANCE', 'Refused', 'Not enough balance'),
  row(13, 'PENDING', 'Received', null),
  row(14, 'ACQUIRER_FRAUD', 'Refused', 'Acquirer Fraud'),
  // Adyen's table answers CANCELLED with resultCode Refused (only FRAUD_CANCELLED is Cancelled).
  row(15, 'CANCELLED', 'Refused', 'Cancelled'),
  row(16, 'SHOPPER_CANCELLED', 'Refused', 'Shopper Cancelled'),
  row(17, 'INVALID_PIN', 'Refused', 'Invalid Pin'),
  row(18, 'PIN_TRIES_EXCEEDED', 'Refused', 'Pin tries exceeded'),
  row(19, 'PIN_VALIDATION_NOT_POSSIBLE', 'Refused', 'Pin validation not possible'),
  row(20, 'FRAUD', 'Refused', 'FRAUD'),
  row(21, 'NOT_SUBMITTED', 'Refused', 'Not Submitted'),
  row(22, 'FRAUD_CANCELLED', 'Cancelled', 'FRAUD-CANCELLED'),
  row(23, 'TRANSACTION_NOT_PERMITTED', 'Refused', 'Transaction Not Permitted'),
  row(24, 'CVC_DECLINED', 'Refused', 'CVC Declined'),
  row(25, 'RESTRICTED_CARD', 'Refused', 'Restricted Card'),
  row(26, 'REVOCATION_OF_AUTH', 'Refused', 'Revocation Of Auth'),
  row(27, 'DECLINED_NON_GENERIC', 'Refused', 'Declined Non Generic'),
  row(28, 'WITHDRAWAL_AMOUNT_EXCEEDED', 'Refused', 'Withdrawal amount exceeded'),
  row(29, 'WITHDRAWAL_COUNT_EXCEEDED', 'Refused', 'Withdrawal count exceeded'),
  row(31, 'ISSUER_SUSPECTED_FRAUD', 'Refused', 'Issuer Suspected Fraud'),
  row(32, 'AVS_DECLINED', 'Refused', 'AVS Declined'),
  row(33, 'PIN_REQUIRED', 'Refused', 'Card requires online pin'),
  // The two names are spelled both ways in the material this table was checked against; either asks for the row.
  row(34, 'NO_CHECKING_ACCOUNT_AVAILABLE_ON_CARD', 'Refused', 'No checking account available on Card', ['NO_CHECKING_ACCOUNT']),
  row(35, 'NO_SAVINGS_ACCOUNT_AVAILABLE_ON_CARD', 'Refused', 'No savings account available on Card', ['NO_SAVINGS_ACCOUNT']),
  row(36, 'MOBILE_PIN_REQUIRED', 'Refused', 'Mobile PIN required'),
  row(37, 'CONTACTLESS_FALLBACK', 'Refused', 'Contactless fallback'),
  row(38, 'AUTHENTICATION_REQUIRED', 'Refused', 'Authentication required'),
  row(39, 'RREQ_NOT_RECEIVED', 'Refused', 'RReq not received from DS'),
  row(40, 'BAN_CURRENT_AID', 'Refused', 'Current AID is in Penalty Box.'),
  row(41, 'CVM_REQUIRED', 'Refused', 'CVM Required Restart Payment'),
  row(42, 'THREED_SECURE_ERROR', 'Refused', '3DS Authentication Error'),
  row(43, 'ONLINE_PIN_REQUIRED', 'Refused', 'Online PIN required'),
  row(44, 'TRY_ANOTHER_INTERFACE', 'Refused', 'Try another interface'),
  row(45, 'CHIP_DOWNGRADE_MODE', 'Refused', 'Chip downgrade mode'),
  row(46, 'ERPS_BLOCK', 'Refused', 'Transaction blocked by Adyen to prevent excessive retry fees'),
];

/** The refusal a row answers (Refused, Error or Cancelled, with its reason and code); none for Authorised and Received. */
export function refusalOfRow(result: TestResult, raw?: string): Refusal | undefined {
  if (result.resultCode === 'Authorised' || result.resultCode === 'Received' || result.refusalReason === null) return undefined;
  return { reason: result.refusalReason, code: String(result.code), resultCode: result.resultCode, ...(raw !== undefined && { raw }) };
}

const BY_NAME: ReadonlyMap<string, TestResult> = new Map(TEST_RESULTS.flatMap((r) => [r.holderName, ...(r.aliases ?? [])].map((name) => [name, r] as const)));
const BY_CODE: ReadonlyMap<string, TestResult> = new Map(TEST_RESULTS.map((r) => [String(r.code), r] as const));

/** The refusal of every failing name of the table (aliases included), for methods that reuse one (gift cards, redirects, SEPA). */
export const TEST_REFUSALS: Readonly<Record<string, Refusal>> = Object.fromEntries(
  [...BY_NAME].flatMap(([name, result]) => {
    const refusal = refusalOfRow(result);
    return refusal ? [[name, refusal] as const] : [];
  }),
);

/** What a payment request asks of the test platform: a row, and the raw response the holder name named with it. */
export interface RequestedResult {
  result: TestResult;
  /** `additionalData.refusalReasonRaw` asked for (`DECLINED : 05 : Do not honor` asks for `05 : Do not honor`). */
  raw?: string;
}

/**
 * The holder name's row: a name of the table, or Adyen's form for a custom raw response,
 * `<name> : <scheme response code and raw reason>` (testing-with-card-holder-name), whose part
 * after the first colon becomes the raw refusal reason. Any other holder name asks for nothing.
 */
function byHolderName(holderName: string): RequestedResult | undefined {
  const exact = BY_NAME.get(holderName);
  if (exact) return { result: exact };
  const colon = holderName.indexOf(':');
  if (colon < 0) return undefined;
  const result = BY_NAME.get(holderName.slice(0, colon).trim());
  const raw = holderName.slice(colon + 1).trim();
  return result && raw ? { result, raw } : result && { result };
}

/**
 * The row a payment asks for: `additionalData.RequestedTestAcquirerResponseCode` first (a code of
 * the table, as a number or a string of digits, or a row's name, which Adyen's older result-code
 * page also allows), else the card's holder name. An unknown code or name asks for nothing, and
 * the payment goes on as it would without it.
 */
export function requestedTestResult(
  holderName: string | null | undefined,
  additionalData: Readonly<Record<string, unknown>> | undefined,
): RequestedResult | undefined {
  const asked = additionalData?.RequestedTestAcquirerResponseCode;
  const key = typeof asked === 'number' ? String(asked) : typeof asked === 'string' ? asked.trim() : undefined;
  const byCode = key === undefined ? undefined : (BY_CODE.get(/^\d+$/.test(key) ? String(Number(key)) : '') ?? BY_NAME.get(key));
  if (byCode) return { result: byCode };
  return holderName ? byHolderName(holderName) : undefined;
}
