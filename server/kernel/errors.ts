/**
 * Every error the API can answer with, and the two public error bodies built from them.
 * Checkout answers `ServiceError`; management answers RFC 7807 `RestServiceError`
 * (spec/shared/components/schemas). Tests import the constants below.
 */

/** The API areas; client-side calls answer errors in the checkout area's body, the console's in management's. */
export type Area = 'checkout' | 'management' | 'clientside' | 'console';
export type ErrorType = 'validation' | 'security' | 'configuration' | 'internal';

export interface InvalidField {
  name: string;
  value: string;
  message: string;
}

/** A condition the API reports to its caller. `code` is the checkout code; `managementCode` overrides it there. */
export interface ErrorSpec {
  status: number;
  code: string;
  message: string;
  errorType: ErrorType;
  managementCode?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errorType: ErrorType;
  readonly managementCode: string | undefined;
  readonly invalidFields: InvalidField[] | undefined;
  readonly pspReference: string | undefined;
  /** For 429: seconds until a retry may succeed (sent as Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(spec: ErrorSpec, detail?: { message?: string; invalidFields?: InvalidField[]; pspReference?: string; retryAfter?: number }) {
    // An answer to the caller, not a fault: no stack trace is taken (V8 walks the stack for each
    // error made, some 60 µs through express's middleware under jest's limit of 100 frames).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail?.message ?? spec.message);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = spec.status;
    this.code = spec.code;
    this.errorType = spec.errorType;
    this.managementCode = spec.managementCode;
    this.invalidFields = detail?.invalidFields;
    this.pspReference = detail?.pspReference;
    this.retryAfter = detail?.retryAfter;
  }
}

const e = (status: number, code: string, message: string, errorType: ErrorType, managementCode?: string): ErrorSpec =>
  managementCode === undefined ? { status, code, message, errorType } : { status, code, message, errorType, managementCode };

// Transport and protocol.
export const ERR_MALFORMED_JSON = e(400, '702', 'Unexpected input: the body is not valid JSON', 'validation', '00_400');
export const ERR_TOO_DEEP = e(400, '702', 'Unexpected input: the body is nested too deeply', 'validation', '00_400');
export const ERR_BAD_HEADER = e(400, '702', 'A request header is not valid', 'validation', '00_400');
export const ERR_UNEXPECTED_BODY = e(400, '702', 'Unexpected input: this operation takes no request body', 'validation', '00_400');
export const ERR_IDEMPOTENCY_KEY_TOO_LONG = e(400, '29_001', "Field 'Idempotency-Key' may not exceed 64 characters", 'validation');
export const ERR_IDEMPOTENCY_KEY_MALFORMED = e(400, '702', "Field 'Idempotency-Key' must be 1 to 64 printable ASCII characters", 'validation');
export const ERR_BODY_TOO_LARGE = e(413, '29_100', 'Request larger than allowed maximum', 'validation');
export const ERR_UNSUPPORTED_MEDIA_TYPE = e(415, '702', 'Unsupported media type: send application/json', 'validation', '00_415');
export const ERR_NOT_FOUND_ROUTE = e(404, '000', 'Not Found', 'validation', '00_404');
export const ERR_METHOD_NOT_ALLOWED = e(405, '000', 'Method not allowed', 'validation', '00_405');
export const ERR_INTERNAL = e(500, '903', 'Internal error', 'internal', '00_500');
export const ERR_UNAVAILABLE = e(503, '905', 'Service unavailable: the database cannot be reached; nothing was changed, retry shortly', 'internal', '00_503');

// Authentication and authorisation.
export const ERR_UNAUTHORIZED = e(401, '000', 'HTTP Status Response - Unauthorized', 'security', '00_401');
export const ERR_NOT_ALLOWED = e(403, '010', 'Not allowed', 'security', '00_403');
export const ERR_INVALID_MERCHANT_ACCOUNT = e(403, '901', 'Invalid Merchant Account', 'security', '00_403');

// Request validation.
export const ERR_FIELD_REQUIRED = e(422, '158', 'Required field is not provided', 'validation', '00_422');
export const ERR_FIELD_INVALID = e(422, '192', 'Invalid field', 'validation', '00_422');
export const ERR_AMOUNT_INVALID = e(422, '137', "Field 'amount' is not valid", 'validation', '00_422');
export const ERR_UNSAFE_INTEGER = e(422, '192', 'A number is not a safe integer', 'validation', '00_422');
export const ERR_NOT_FOUND_ENTITY = e(404, '000', 'Entity was not found', 'validation', '30_112');

// Cards.
export const ERR_INVALID_CARD_NUMBER = e(422, '101', 'Invalid card number', 'validation');
export const ERR_UNKNOWN_CARD_BRAND = e(422, '102', 'Unable to determine variant', 'validation');
export const ERR_EXPIRY_MISSING = e(422, '129', 'Expiry Date Invalid', 'validation');
export const ERR_EXPIRY_INVALID = e(422, '141', 'Invalid expiryMonth[1..12] / expiryYear[>2000]', 'validation');
export const ERR_CANNOT_DECRYPT = e(422, '174', 'Unable to decrypt data', 'validation');
export const ERR_CARD_MISSING = e(422, '14_004', 'Missing payment method details', 'validation');

// Payments and modifications.
export const ERR_PAYMENT_NOT_FOUND = e(422, '167', 'Original pspReference required for this operation', 'validation');
export const ERR_ALREADY_PROCESSED = e(422, '704', 'request already processed or in progress', 'validation');
export const ERR_INVALID_DETAILS = e(422, '14_005', 'Invalid payment method details', 'validation');
export const ERR_NOT_CAPTURABLE = e(422, '22_001', 'Payment is not in a state that allows capture', 'validation');
export const ERR_CAPTURE_EXCEEDS_AUTHORISED = e(422, '22_002', 'Capture amount exceeds the amount that can still be captured', 'validation');
export const ERR_REFUND_EXCEEDS_CAPTURED = e(422, '22_003', 'Refund amount exceeds the captured amount not yet refunded', 'validation');
export const ERR_NOTHING_CAPTURED = e(422, '22_004', 'Payment has no captured amount to refund', 'validation');
export const ERR_AMOUNT_UPDATE_NOT_ALLOWED = e(
  422,
  '22_005',
  'Amount update is not allowed: the payment is captured, cancelled or not authorised',
  'validation',
);
export const ERR_NOT_CANCELLABLE = e(422, '22_006', 'Payment cannot be cancelled: it is captured, cancelled or not authorised', 'validation');
export const ERR_CURRENCY_MISMATCH = e(422, '22_007', 'Currency does not match the currency of the payment', 'validation');
export const ERR_NOTHING_TO_REVERSE = e(422, '22_008', 'Nothing left to reverse: the payment is cancelled, fully refunded or not authorised', 'validation');
export const ERR_AMOUNT_UNCHANGED = e(422, '22_009', 'The new amount must differ from the authorised amount', 'validation');
export const ERR_ORDER_AMOUNT_EXCEEDED = e(422, '22_010', 'Payment amount exceeds the remaining amount of the order', 'validation');
export const ERR_ORDER_EXPIRED = e(422, '22_011', 'The order has expired', 'validation');
export const ERR_ORDER_CLOSED = e(422, '22_012', 'The order is no longer open', 'validation');
export const ERR_ORDER_NOT_FOUND = e(422, '22_013', 'Order not found: pspReference and orderData do not match an order of this merchant account', 'validation');
export const ERR_EXPIRES_AT_INVALID = e(422, '22_014', "Field 'expiresAt' must be a future time", 'validation');
/** A sandbox event (POST /sandbox/payments/{paymentPspReference}/events) that does not fit the payment's state. */
export const ERR_SANDBOX_EVENT_NOT_APPLICABLE = e(422, '22_030', "The event does not fit the payment's state", 'validation');

// Tokens, links, sessions, forward, PayPal.
export const ERR_TOKEN_NOT_FOUND = e(422, '800', 'Contract not found', 'validation');
export const ERR_METADATA_SIZE = e(422, '177', 'Metadata size exceeds limit', 'validation');
export const ERR_METADATA_KEY_SIZE = e(422, '178', 'Metadata key size exceeds limit', 'validation');
export const ERR_EXPIRES_AT_TOO_LATE = e(422, '14_0379', 'expiresAt is greater than the allowed date', 'validation');
export const ERR_LINK_EXPIRED = e(422, '14_0385', 'PaymentLink is expired', 'validation');
export const ERR_LINK_NOT_FOUND = e(422, '14_0386', 'PaymentLink not found', 'validation');
export const ERR_LINK_NOT_PAYABLE = e(422, '14_0387', 'PaymentLink is completed and cannot be changed or paid', 'validation');
export const ERR_RECURRING_MODEL_REQUIRED = e(422, '158', "Required field 'recurringProcessingModel' is not provided", 'validation');
export const ERR_SESSION_NOT_FOUND = e(422, '14_0021', 'Session not found', 'validation');
export const ERR_SESSION_EXPIRED = e(422, '14_008', 'Session has expired', 'validation');
export const ERR_SESSION_DATA = e(422, '14_0022', "Invalid field 'sessionData': it does not belong to this session", 'validation');
export const ERR_SESSION_COMPLETED = e(422, '14_0023', 'The session already has an authorised payment', 'validation');
export const ERR_SESSION_RESULT = e(422, '14_0024', "Invalid field 'sessionResult'", 'validation');
export const ERR_FORWARD_DESTINATION = e(422, '15_001', 'Forward destination not allowed', 'validation');
export const ERR_FORWARD_FAILED = e(422, '15_002', 'The third party could not be reached', 'validation');
export const ERR_PAYPAL_NOT_PENDING = e(422, '14_0030', 'The payment is not a pending PayPal payment', 'validation');
export const ERR_PAYPAL_PAYMENT_DATA = e(422, '14_003', 'Invalid paymentData', 'validation');
export const ERR_DELIVERY_METHODS = e(422, '192', "Invalid field 'deliveryMethods': exactly one must be selected", 'validation');

// Donations and Apple Pay sessions (23_0xx; 187 is Adyen's code for a donation account it does not know).
export const ERR_DONATION_CAMPAIGN = e(422, '23_001', 'Donation campaign not found: it is not active for this merchant account', 'validation');
export const ERR_DONATION_AMOUNT = e(422, '23_002', 'The donation amount is not one the campaign offers', 'validation');
export const ERR_DONATION_TOKEN = e(
  422,
  '23_003',
  "Invalid donationToken: it is not the token of an authorised card payment 'donationOriginalPspReference'",
  'validation',
);
export const ERR_DONATION_TOKEN_USED = e(422, '23_004', 'The donationToken has already been used for a donation', 'validation');
export const ERR_DONATION_SOURCE = e(
  422,
  '23_005',
  'No card to charge the donation to: send donationToken with donationOriginalPspReference, or a stored card (paymentMethod.storedPaymentMethodId with shopperReference)',
  'validation',
);
export const ERR_DONATION_ACCOUNT = e(
  422,
  '187',
  'The donationAccount is not the donation account of an active campaign of this merchant account',
  'validation',
);
export const ERR_APPLE_PAY_MERCHANT = e(422, '23_010', 'Apple Pay is not set up for this merchantIdentifier', 'validation');
export const ERR_APPLE_PAY_DOMAIN = e(422, '23_011', "Invalid field 'domainName': it is not an Apple Pay domain of the merchant account", 'validation');
// Payment methods (checkout-methods).
export const ERR_METHOD_NOT_SUPPORTED = e(422, '905', 'Payment details are not supported', 'configuration');
export const ERR_INVALID_IBAN = e(422, '161', 'Invalid iban', 'validation');
export const ERR_INVALID_HOLDER_NAME = e(422, '203', 'Invalid Bank account holder name', 'validation');

// Limits.
export const ERR_RATE_LIMITED = e(429, '00_429', 'Too many requests', 'security', '00_429');
export const ERR_UPLOAD_TOO_LARGE = e(413, '29_100', 'The upload is larger than allowed', 'validation', '29_100');

// Sandbox.
export const ERR_SANDBOX_ONLY = e(404, '000', 'Not Found: sandbox operations are disabled in production mode', 'configuration', '00_404');

const TITLES: Record<number, { type: string; title: string }> = {
  400: { type: 'https://docs.adyen.com/errors/general/bad-request', title: 'Bad request' },
  401: { type: 'https://docs.adyen.com/errors/unauthorized', title: 'Unauthorized' },
  403: { type: 'https://docs.adyen.com/errors/forbidden', title: 'Forbidden' },
  404: { type: 'https://docs.adyen.com/errors/not-found', title: 'Entity was not found' },
  405: { type: 'https://docs.adyen.com/errors/general/method-not-allowed', title: 'Method not allowed' },
  413: { type: 'https://docs.adyen.com/errors/general/payload-too-large', title: 'Payload too large' },
  415: { type: 'https://docs.adyen.com/errors/general/unsupported-media-type', title: 'Unsupported media type' },
  422: { type: 'https://docs.adyen.com/errors/validation', title: 'The request is missing required fields or contains invalid data.' },
  429: { type: 'https://docs.adyen.com/errors/general/too-many-requests', title: 'Too many requests' },
  500: { type: 'https://docs.adyen.com/errors/general/internal', title: 'An internal error happened' },
};

export interface CheckoutErrorBody {
  status: number;
  errorCode: string;
  message: string;
  errorType: ErrorType;
  pspReference?: string;
}

export interface ManagementErrorBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errorCode: string;
  invalidFields?: InvalidField[];
  requestId: string;
}

/** 422 for one field (management lists it in `invalidFields`). */
export function invalidField(name: string, value: string, message: string): ApiError {
  return new ApiError(ERR_FIELD_INVALID, { message: `Invalid field '${name}': ${message}`, invalidFields: [{ name, value, message }] });
}

/** The checkout `ServiceError` body of an error. */
export function toCheckoutError(error: ApiError): CheckoutErrorBody {
  const body: CheckoutErrorBody = { status: error.status, errorCode: error.code, message: error.message, errorType: error.errorType };
  if (error.pspReference) body.pspReference = error.pspReference;
  return body;
}

/** The RFC 7807 problem-details body of an error, with the given error code. */
function toProblem(error: ApiError, requestId: string, errorCode: string): ManagementErrorBody {
  const kind = TITLES[error.status] ?? { type: 'https://docs.adyen.com/errors/general', title: 'Error' };
  const body: ManagementErrorBody = { type: kind.type, title: kind.title, status: error.status, detail: error.message, errorCode, requestId };
  if (error.invalidFields && error.invalidFields.length > 0) body.invalidFields = error.invalidFields;
  return body;
}

/** The management RFC 7807 body of an error. */
export function toManagementError(error: ApiError, requestId: string): ManagementErrorBody {
  return toProblem(error, requestId, error.managementCode ?? (error.status === 422 ? '00_422' : error.code));
}

/**
 * Checkout paths (relative to the area's base) whose errors Adyen documents as RFC 7807 problem
 * details (`DefaultErrorResponseEntity`) instead of `ServiceError`.
 */
export const CHECKOUT_PROBLEM_PATHS: ReadonlySet<string> = new Set(['/validateShopperId']);

/** The problem-details body of a checkout error on one of those paths: the checkout error code, the management fields. */
export function toCheckoutProblem(error: ApiError, requestId: string): ManagementErrorBody {
  return toProblem(error, requestId, error.code);
}
