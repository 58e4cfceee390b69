import http from 'node:http';
import https from 'node:https';
import { vetDestination } from '../checkout/destination.js';
import type { CardVault } from '../crypto/card-vault.js';
import { ApiError } from '../http/errors.js';
import type { Webhook } from '../store/types.js';

export interface SendOptions {
  timeoutMs: number;
  allowList: Record<string, string[]>;
  allowPrivate: boolean;
}

export interface SendResult {
  outcome: 'accepted' | 'rejected' | 'error';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the receiver's body (at most 10 000 characters). */
  body: string;
}

const MAX_BODY = 10_000;

/**
 * POSTs one notification to a webhook. Never throws: every failure is a result. The destination
 * passes the same guard as /forward (allow-list, public addresses, pinned address, no redirects).
 * A 2xx, or a body containing `[accepted]`, accepts.
 */
export async function sendNotification(webhook: Webhook, payload: string, vault: CardVault, options: SendOptions, now: () => number = Date.now): Promise<SendResult> {
  const started = now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Math.max(0, Math.round(now() - started)) });
  let destination;
  try {
    const allowList = [...(options.allowList[webhook.merchantId] ?? []), ...(options.allowList['*'] ?? [])];
    destination = await vetDestination(webhook.url, allowList, options.allowPrivate);
  } catch (error) {
    return done({ outcome: 'error', statusCode: null, error: error instanceof ApiError ? error.message : 'destination refused', body: '' });
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), 'user-agent': 'payments-platform-webhooks/1' };
  if (webhook.username && webhook.encryptedPassword) {
    headers.authorization = `Basic ${Buffer.from(`${webhook.username}:${vault.decrypt(webhook.encryptedPassword)}`).toString('base64')}`;
  }
  const lenient = webhook.acceptsSelfSignedCertificate || webhook.acceptsUntrustedRootCertificate || webhook.acceptsExpiredCertificate;
  const client = destination.url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = client.request(
      destination.url,
      {
        method: 'POST',
        headers,
        lookup: (_host, _options, callback) => callback(null, destination.address, destination.family),
        timeout: options.timeoutMs,
        ...(destination.url.protocol === 'https:' && { rejectUnauthorized: !lenient }),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < MAX_BODY) body += chunk.slice(0, MAX_BODY - body.length);
        });
        response.on('end', () => {
          const statusCode = response.statusCode ?? 0;
          const accepted = (statusCode >= 200 && statusCode < 300) || body.includes('[accepted]');
          resolve(done({ outcome: accepted ? 'accepted' : 'rejected', statusCode, error: accepted ? null : `answered ${statusCode}`, body }));
        });
        response.on('error', () => resolve(done({ outcome: 'error', statusCode: response.statusCode ?? null, error: 'the response broke off', body })));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    request.on('error', (error) => resolve(done({ outcome: 'error', statusCode: null, error: error.message || (error as NodeJS.ErrnoException).code || 'connection failed', body: '' })));
    request.end(payload);
  });
}
