import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Notification } from '../../client/webhooks.js';
import type { TestServer } from './start-server.js';

export interface Received {
  body: string;
  notification: Notification;
  authorization: string | undefined;
}

/**
 * A webhook receiver on loopback that records every request; `answer` decides the response.
 * With `https`, it serves the test certificate (self-signed for 127.0.0.1 and localhost).
 */
export class Receiver {
  constructor(private readonly options: { https?: boolean } = {}) {}

  readonly received: Received[] = [];
  answer: (req: IncomingMessage, res: ServerResponse, index: number) => void = (_req, res) => res.writeHead(200).end('[accepted]');
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    const listener: RequestListener = (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const index = this.received.length;
        this.received.push({ body, notification: JSON.parse(body) as Notification, authorization: req.headers.authorization });
        this.answer(req, res, index);
      });
    };
    const tls = join(process.cwd(), 'test', 'fixtures', 'tls');
    this.server = this.options.https
      ? createHttpsServer({ key: readFileSync(join(tls, 'localhost.key')), cert: readFileSync(join(tls, 'localhost.crt')) }, listener)
      : createServer(listener);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `${this.options.https ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
    return this;
  }

  /** The items received, in order. */
  items() {
    return this.received.map((r) => r.notification.notificationItems[0]!.NotificationRequestItem);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}

/** A receiver set up as a merchant webhook of the server, with its HMAC key; `remove()` deletes the webhook and stops the receiver. */
export interface SignedReceiver {
  receiver: Receiver;
  hmacKey: string;
  remove(): Promise<void>;
}

export async function signedReceiver(server: TestServer, merchantId: string): Promise<SignedReceiver> {
  const receiver = await new Receiver().start();
  const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  const webhookId = data!.id;
  const key = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', { params: { path: { merchantId, webhookId } } });
  return {
    receiver,
    hmacKey: key.data!.hmacKey,
    async remove() {
      await server.management.DELETE('/merchants/{merchantId}/webhooks/{webhookId}', { params: { path: { merchantId, webhookId } } });
      await receiver.stop();
    },
  };
}
