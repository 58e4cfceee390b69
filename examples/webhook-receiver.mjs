#!/usr/bin/env node
// A webhook receiver for your own machine: plain Node.js, no dependencies (copy this one file).
// It listens on http://127.0.0.1:4000 (RECEIVER_PORT changes the port), checks the HMAC signature of every
// notification with the key in WEBHOOK_HMAC_KEY, prints one line per event and answers
// [accepted]. Steps: docs/local-webhook-receiver.md.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.RECEIVER_PORT ?? 4000);
const hmacKey = process.env.WEBHOOK_HMAC_KEY ?? '';
if (hmacKey && !/^([0-9a-fA-F]{2})+$/.test(hmacKey)) {
  console.error('WEBHOOK_HMAC_KEY must be the hexadecimal key that POST …/webhooks/{id}/generateHmac returned');
  process.exit(1);
}

// Adyen's HMAC signature of a standard notification: HMAC-SHA256 under the hex-decoded key of
// eight values joined with ':' (a missing value is empty), base64-encoded, sent in
// additionalData.hmacSignature.
function signatureOf(item) {
  const signed = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    item.amount?.value ?? '',
    item.amount?.currency ?? '',
    item.eventCode,
    item.success,
  ].join(':');
  return createHmac('sha256', Buffer.from(hmacKey, 'hex')).update(signed, 'utf8').digest();
}

function verdict(item) {
  if (!hmacKey) return 'NOT VERIFIED (start the receiver with WEBHOOK_HMAC_KEY)';
  const given = Buffer.from(item.additionalData?.hmacSignature ?? '', 'base64');
  const expected = signatureOf(item);
  // A constant-time comparison, so that the answer's timing tells nothing about the signature.
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'signature verified' : 'SIGNATURE INVALID: do not act on it';
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(405, { Allow: 'POST' }).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let items;
    try {
      items = JSON.parse(Buffer.concat(chunks).toString('utf8')).notificationItems.map((entry) => entry.NotificationRequestItem);
    } catch {
      console.log(`${req.url}: not a notification (${chunks.length ? 'unreadable JSON' : 'empty body'})`);
      return res.writeHead(400).end();
    }
    for (const item of items) {
      // Amounts are in minor units: 1000 EUR is EUR 10.00.
      const amount = item.amount ? ` amount=${item.amount.value} ${item.amount.currency}` : '';
      console.log(
        `${item.eventCode} success=${item.success} pspReference=${item.pspReference} merchantReference=${item.merchantReference}${amount}: ${verdict(item)}`,
      );
    }
    // Acknowledge receipt, whatever the events say: the sandbox retries anything else.
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('[accepted]');
  });
});

server.listen(port, '127.0.0.1', () => {
  console.log(
    `listening on http://127.0.0.1:${server.address().port}/webhooks (${hmacKey ? 'HMAC key set: signatures are checked' : 'no WEBHOOK_HMAC_KEY: signatures are not checked'})`,
  );
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
