/**
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 that takes standard webhooks as a
 * merchant's endpoint should, answering `[accepted]`, and checks each NotificationRequestItem's
 * HMAC signature with the webhook's key (the server's own signing code, lib/webhook-signature.ts).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Notification, type NotificationRequestItem, verifyHmacSignature } from '../../lib/webhook-signature.js';

export interface ReceivedWebhook {
  item: NotificationRequestItem;
  /** True when the item's signature matches the key, undefined when the receiver has no key. */
  verified: boolean | undefined;
  live: string;
  headers: IncomingHttpHeaders;
}

export interface ReceiveWebhooksOptions {
  /** The webhook's HMAC key (hex): items whose signature does not match are refused. Also settable later (`hmacKey`), or taken from `register`. */
  hmacKey?: string;
  /**
   * Makes this receiver a standard webhook of the merchant account (Management API, with a
   * company key), generates its HMAC key and uses it; close() removes the webhook.
   */
  register?: { managementUrl: string; apiKey: string; merchantAccount: string };
}

export interface WebhookReceiver {
  /** The address to give the sandbox as the webhook's URL. */
  url: string;
  /** The key the signatures are checked with; undefined accepts every item unchecked. */
  hmacKey: string | undefined;
  /** With `register`: the webhook's id in the sandbox. */
  webhookId: string | undefined;
  /** Accepted items, in order of arrival. */
  received: ReceivedWebhook[];
  /** Items refused for a missing or wrong signature (their request was answered 401, so the sandbox retries it). */
  rejected: ReceivedWebhook[];
  /** Every accepted item, the ones already received first, then as they arrive (until close()). */
  events: AsyncIterable<ReceivedWebhook>;
  /** The first accepted item the predicate holds for (already received or still to come); rejects after timeoutMs (default 10 000). */
  waitFor(predicate: (item: NotificationRequestItem, webhook: ReceivedWebhook) => boolean, options?: { timeoutMs?: number }): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function receiveWebhooks(options: ReceiveWebhooksOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const rejected: ReceivedWebhook[] = [];
  const listeners = new Set<() => void>();
  let closed = false;
  const notify = () => listeners.forEach((listener) => listener());

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let notification: Notification;
      try {
        notification = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Notification;
        if (!Array.isArray(notification.notificationItems)) throw new Error('no notificationItems');
      } catch {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('not a standard webhook');
        return;
      }
      const items = notification.notificationItems.map(({ NotificationRequestItem: item }) => ({
        item,
        verified: receiver.hmacKey === undefined ? undefined : verifyHmacSignature(receiver.hmacKey, item),
        live: notification.live,
        headers: req.headers,
      }));
      if (items.some((webhook) => webhook.verified === false)) {
        rejected.push(...items);
        res.writeHead(401, { 'Content-Type': 'text/plain' }).end('HMAC signature does not match');
      } else {
        received.push(...items);
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('[accepted]');
      }
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

  const receiver: WebhookReceiver = {
    url,
    hmacKey: options.hmacKey,
    webhookId: undefined,
    received,
    rejected,
    events: {
      async *[Symbol.asyncIterator]() {
        for (let next = 0; ; next++) {
          while (next >= received.length) {
            if (closed) return;
            await new Promise<void>((resolve) => {
              const listener = () => {
                listeners.delete(listener);
                resolve();
              };
              listeners.add(listener);
            });
          }
          yield received[next]!;
        }
      },
    },
    waitFor(predicate, { timeoutMs = 10_000 } = {}) {
      const found = () => received.find((webhook) => predicate(webhook.item, webhook));
      const already = found();
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const listener = () => {
          const match = found();
          if (match || closed) {
            clearTimeout(timer);
            listeners.delete(listener);
            if (match) resolve(match);
            else reject(new Error('the webhook receiver was closed before a matching webhook arrived'));
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(listener);
          const seen = received.map((w) => `${w.item.eventCode} ${w.item.pspReference}`).join(', ') || 'none';
          reject(new Error(`no matching webhook within ${timeoutMs} ms (accepted: ${seen}; refused for their signature: ${rejected.length})`));
        }, timeoutMs);
        listeners.add(listener);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      notify();
      if (options.register && receiver.webhookId) {
        const { managementUrl, apiKey, merchantAccount } = options.register;
        await fetch(`${managementUrl}/merchants/${encodeURIComponent(merchantAccount)}/webhooks/${encodeURIComponent(receiver.webhookId)}`, {
          method: 'DELETE',
          headers: { 'X-API-Key': apiKey },
        }).catch(() => undefined);
      }
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  if (options.register) {
    try {
      const { webhookId, hmacKey } = await register(options.register, url);
      receiver.webhookId = webhookId;
      receiver.hmacKey = hmacKey;
    } catch (error) {
      await receiver.close();
      throw error;
    }
  }
  return receiver;
}

/** Creates the merchant account's standard webhook to `url` and generates its HMAC key. */
async function register({ managementUrl, apiKey, merchantAccount }: NonNullable<ReceiveWebhooksOptions['register']>, url: string) {
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${managementUrl}/merchants/${encodeURIComponent(merchantAccount)}/webhooks${path}`, {
      method: 'POST',
      ...(body === undefined
        ? { headers: { 'X-API-Key': apiKey } }
        : { headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`registering the webhook receiver failed (${response.status}): ${text}`);
    return JSON.parse(text) as T;
  };
  const { id } = await call<{ id: string }>('', { type: 'standard', url, active: true, communicationFormat: 'json' });
  const { hmacKey } = await call<{ hmacKey: string }>(`/${encodeURIComponent(id)}/generateHmac`);
  return { webhookId: id, hmacKey };
}
