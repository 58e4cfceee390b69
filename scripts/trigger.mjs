#!/usr/bin/env node
// `npm run trigger -- <eventCode> --psp <pspReference> [--amount N] [--outcome WON|LOST]`: makes a
// sandbox send an event, or start a dispute flow, for a payment now (POST /sandbox/payments/{paymentPspReference}/events, docs/sandbox-test-data.md),
// prints the answer and exits 0 when the event was queued, 1 when the sandbox refused it, 2 on bad
// arguments or when the server cannot be reached. Needs a company-level API key, as the sandbox
// clock does.
import { parseArgs } from 'node:util';

const EVENT_CODES = ['CAPTURE_FAILED', 'REFUND_FAILED', 'OFFER_CLOSED', 'EXPIRE', 'REPORT_AVAILABLE'];
const DISPUTE_CODES = ['NOTIFICATION_OF_FRAUD', 'REQUEST_FOR_INFORMATION', 'CHARGEBACK', 'PREARBITRATION_OPEN', 'SECOND_CHARGEBACK', 'SCHEME_ARBITRATION'];
const OUTCOMES = ['WON', 'LOST'];

const USAGE = `usage: npm run trigger -- <eventCode> --psp <pspReference> [--amount N] [--currency EUR]
         [--modification <pspReference>] [--reason <text>] [--outcome WON|LOST]
         [--reason-code <code>] [--idempotency-key <key>] [--url <checkout base>] [--api-key <key>]

  eventCode        ${EVENT_CODES.join(', ')};
                   dispute flows: ${DISPUTE_CODES.join(', ')}
  --psp            the payment's pspReference
  --amount         CAPTURE_FAILED, REFUND_FAILED: how much failed, in minor units (default: all of it)
  --currency       the amount's currency (default EUR; it must be the payment's)
  --modification   CAPTURE_FAILED, REFUND_FAILED: the capture or refund to fail (default: the latest)
  --reason         CAPTURE_FAILED, REFUND_FAILED: the event's reason
  --outcome        dispute flows: how the flow ends, WON or LOST (default LOST)
  --reason-code    dispute flows, NOTIFICATION_OF_FRAUD: the scheme's reason code (default: the brand's
                   card-absent fraud code, e.g. 10.4 for Visa)
  --url            the checkout base address (default: $BASE_URL/checkout/v71, BASE_URL defaulting to
                   http://localhost:8080, the server's default)
  --api-key        a company-level API key (default: $API_KEY, else $DEMO_COMPANY_API_KEY, the demo
                   company key the server was started with)`;

function fail(message) {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      psp: { type: 'string' },
      amount: { type: 'string' },
      currency: { type: 'string', default: 'EUR' },
      modification: { type: 'string' },
      reason: { type: 'string' },
      outcome: { type: 'string' },
      'reason-code': { type: 'string' },
      'idempotency-key': { type: 'string' },
      url: { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(error.message);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [eventCode, ...extra] = positionals;
if (!eventCode || extra.length > 0) fail('name one event code');
if (!EVENT_CODES.includes(eventCode) && !DISPUTE_CODES.includes(eventCode)) fail(`unknown event code ${eventCode}`);
if (values.outcome !== undefined && !OUTCOMES.includes(values.outcome)) fail(`--outcome is ${OUTCOMES.join(' or ')}`);
if (!values.psp) fail('--psp is required');
const apiKey = values['api-key'] ?? process.env.API_KEY ?? process.env.DEMO_COMPANY_API_KEY;
if (!apiKey) fail('no API key: pass --api-key, or set API_KEY or DEMO_COMPANY_API_KEY');
if (values.amount !== undefined && !/^\d+$/.test(values.amount)) fail('--amount takes minor units, a whole number');

const base = (values.url ?? `${(process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '')}/checkout/v71`).replace(/\/+$/, '');
const body = {
  eventCode,
  ...(values.amount !== undefined && { amount: { currency: values.currency, value: Number(values.amount) } }),
  ...(values.modification && { modificationPspReference: values.modification }),
  ...(values.reason && { reason: values.reason }),
  ...(values.outcome && { outcome: values.outcome }),
  ...(values['reason-code'] && { reasonCode: values['reason-code'] }),
};

let response;
try {
  response = await fetch(`${base}/sandbox/payments/${encodeURIComponent(values.psp)}/events`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-API-Key': apiKey,
      ...(values['idempotency-key'] && { 'Idempotency-Key': values['idempotency-key'] }),
    },
    body: JSON.stringify(body),
  });
} catch (error) {
  console.error(`cannot reach ${base}: ${error.cause?.message ?? error.message}`);
  process.exit(2);
}
const text = await response.text();
let shown = text;
try {
  shown = JSON.stringify(JSON.parse(text), null, 2);
} catch {
  // Not JSON (a proxy's page): shown as it came.
}
if (response.ok) {
  console.log(shown);
  process.exit(0);
}
console.error(`${response.status}: ${shown}`);
process.exit(1);
