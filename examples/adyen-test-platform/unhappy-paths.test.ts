/**
 * Unhappy paths as Adyen's test platform documents them, written for that platform with the
 * official Adyen Node library and nothing of this project: refusal reasons by holder name and by
 * RequestedTestAcquirerResponseCode, failed captures and refunds, and a chargeback, checked in the
 * API's answers and in the webhooks a receiver gets (HMAC checked).
 *
 * Against Adyen: ADYEN_API_KEY (a key that may make payments and set up webhooks),
 * ADYEN_MERCHANT_ACCOUNT, and WEBHOOK_PUBLIC_URL (a public address forwarded to this suite's
 * receiver, which listens on WEBHOOK_PORT). Against the sandbox, test/system/adyen-test-platform.test.ts
 * runs this file unchanged: it only points the library at the sandbox and sets the variables.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import adyen from '@adyen/api-library';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Notification {
  eventCode: string;
  pspReference: string;
  originalReference?: string;
  success: string;
  reason?: string;
  additionalData?: Record<string, string>;
}

// The library is CommonJS: its default export holds everything.
const { CheckoutAPI, Client, EnvironmentEnum, hmacValidator, ManagementAPI } = adyen;
const merchantAccount = process.env.ADYEN_MERCHANT_ACCOUNT ?? '';
const client = new Client({ apiKey: process.env.ADYEN_API_KEY ?? '', environment: EnvironmentEnum.TEST });
const checkout = new CheckoutAPI(client);
const management = new ManagementAPI(client);
/** How long a webhook may take to arrive. */
const WAIT_MS = Number(process.env.WEBHOOK_WAIT_MS ?? 20_000);

const received: Notification[] = [];
const waiting = new Set<() => void>();
let receiver: Server;
let hmacKey = '';
let webhookId = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const items = (JSON.parse(body) as { notificationItems: Array<{ NotificationRequestItem: Notification }> }).notificationItems;
      for (const { NotificationRequestItem: item } of items) {
        // Only what Adyen signed with this webhook's key counts.
        if (hmacKey && new hmacValidator().validateHMAC(item as never, hmacKey)) received.push(item);
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('[accepted]');
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(Number(process.env.WEBHOOK_PORT ?? 0), '127.0.0.1', resolve));
  const url = process.env.WEBHOOK_PUBLIC_URL ?? `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  const webhook = await management.WebhooksMerchantLevelApi.setUpWebhook(merchantAccount, {
    type: 'standard',
    url,
    active: true,
    communicationFormat: 'json',
  } as never);
  webhookId = webhook.id!;
  hmacKey = (await management.WebhooksMerchantLevelApi.generateHmacKey(merchantAccount, webhookId)).hmacKey;
});

afterAll(async () => {
  if (webhookId) await management.WebhooksMerchantLevelApi.removeWebhook(merchantAccount, webhookId);
  await new Promise((resolve) => receiver.close(resolve));
});

/** The first notification that matches, waiting for it to arrive. */
function notification(match: (item: Notification) => boolean): Promise<Notification> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = received.find(match);
      if (!found) return;
      clearTimeout(timer);
      waiting.delete(check);
      resolve(found);
    };
    const timer = setTimeout(() => {
      waiting.delete(check);
      reject(new Error(`no matching notification within ${WAIT_MS} ms; received: ${received.map((n) => `${n.eventCode} ${n.pspReference}`).join(', ')}`));
    }, WAIT_MS);
    waiting.add(check);
    check();
  });
}

const eur = (value: number) => ({ currency: 'EUR', value });
const options = () => ({ idempotencyKey: randomUUID() });

/** A card payment with Adyen's test card (unencrypted test values) and the given holder name and additional data. */
function pay(holderName: string, additionalData?: Record<string, string>) {
  return checkout.PaymentsApi.payments(
    {
      amount: eur(1000),
      reference: `unhappy-${randomUUID()}`,
      merchantAccount,
      returnUrl: 'https://shop.example.com/return',
      paymentMethod: {
        type: 'scheme',
        encryptedCardNumber: 'test_4111111111111111',
        encryptedExpiryMonth: 'test_03',
        encryptedExpiryYear: 'test_2030',
        encryptedSecurityCode: 'test_737',
        holderName,
      },
      ...(additionalData && { additionalData }),
    } as never,
    options(),
  );
}

describe('Refusal reasons of the test platform', () => {
  test.each([
    ['DECLINED', 'Refused', 'Refused', '2'],
    ['CARD_EXPIRED', 'Refused', 'Expired Card', '6'],
    ['NOT_ENOUGH_BALANCE', 'Refused', 'Not enough balance', '12'],
    ['ERROR', 'Error', 'Acquirer Error', '4'],
  ])(
    'When the holder name is %s, then the payment is %s with the reason %s (%s) and its AUTHORISATION webhook fails',
    async (holderName, resultCode, reason, code) => {
      const payment = await pay(holderName);
      expect(payment).toMatchObject({ resultCode, refusalReason: reason, refusalReasonCode: code });
      const event = await notification((n) => n.eventCode === 'AUTHORISATION' && n.pspReference === payment.pspReference);
      expect(event).toMatchObject({ success: 'false', reason });
    },
  );

  test('When RequestedTestAcquirerResponseCode is 24, then the payment is refused with CVC Declined', async () => {
    const payment = await pay('John Smith', { RequestedTestAcquirerResponseCode: '24' });
    expect(payment).toMatchObject({ resultCode: 'Refused', refusalReason: 'CVC Declined', refusalReasonCode: '24' });
  });
});

describe('Failed captures and refunds', () => {
  test('When the holder name is "capture failed", then the capture is received and CAPTURE_FAILED follows', async () => {
    const payment = await pay('capture failed');
    expect(payment.resultCode).toBe('Authorised');
    const capture = await checkout.ModificationsApi.captureAuthorisedPayment(payment.pspReference!, { merchantAccount, amount: eur(1000) }, options());
    expect(capture.status).toBe('received');
    const failed = await notification((n) => n.eventCode === 'CAPTURE_FAILED' && n.originalReference === payment.pspReference);
    expect(failed.pspReference).toBe(capture.pspReference);
  });

  test('When the holder name is "refund failed", then the refund is received and REFUND_FAILED follows', async () => {
    const payment = await pay('refund failed');
    await checkout.ModificationsApi.captureAuthorisedPayment(payment.pspReference!, { merchantAccount, amount: eur(1000) }, options());
    const refund = await checkout.ModificationsApi.refundCapturedPayment(payment.pspReference!, { merchantAccount, amount: eur(400) }, options());
    expect(refund.status).toBe('received');
    const failed = await notification((n) => n.eventCode === 'REFUND_FAILED' && n.originalReference === payment.pspReference);
    expect(failed.pspReference).toBe(refund.pspReference);
  });
});

describe('Disputes', () => {
  test('When a payment whose holder name asks for a chargeback is captured, then the notification of chargeback arrives with the reason code', async () => {
    const payment = await pay('Chargeback:10.4');
    await checkout.ModificationsApi.captureAuthorisedPayment(payment.pspReference!, { merchantAccount, amount: eur(1000) }, options());
    const notice = await notification((n) => n.eventCode === 'NOTIFICATION_OF_CHARGEBACK' && n.originalReference === payment.pspReference);
    expect(notice.additionalData?.chargebackReasonCode).toBe('10.4');
  });
});
