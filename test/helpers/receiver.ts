import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Notification } from '../../client/webhooks.js';

export interface Received {
  body: string;
  notification: Notification;
  authorization: string | undefined;
}

/** A webhook receiver on loopback that records every request; `answer` decides the response. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (req: IncomingMessage, res: ServerResponse, index: number) => void = (_req, res) => res.writeHead(200).end('[accepted]');
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const index = this.received.length;
        this.received.push({ body, notification: JSON.parse(body) as Notification, authorization: req.headers.authorization });
        this.answer(req, res, index);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
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
