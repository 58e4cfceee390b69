import type { CardVault } from '../crypto/card-vault.js';
import { outboundCall, type OutboundLog } from '../outbound/client.js';
import { allowListOf } from '../outbound/guard.js';
import type { CertificatePolicy } from '../outbound/tls.js';
import type { Webhook } from '../../store/types.js';

export interface SendOptions {
  timeoutMs: number;
  allowList: Record<string, string[]>;
  allowPrivate: boolean;
  /** Receivers on loopback need no allow-list entry (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
  /** Sent on behalf of a request (a webhook test): logged with its id. */
  log?: OutboundLog;
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

/** The certificate faults the webhook accepts, and its lowest TLS version (TLSv1.2 unless it asks for 1.3). */
export const certificatePolicyOf = (webhook: Webhook): CertificatePolicy => ({
  expired: webhook.acceptsExpiredCertificate,
  selfSigned: webhook.acceptsSelfSignedCertificate,
  untrustedRoot: webhook.acceptsUntrustedRootCertificate,
  minVersion: webhook.encryptionProtocol === 'TLSv1.3' ? 'TLSv1.3' : 'TLSv1.2',
});

/**
 * POSTs one notification about `merchantAccount` to a webhook with the one outbound client (the
 * same guard, pinned address, timeout and no-redirect rule as /forward; the account's outbound
 * allow-list; the webhook's certificate policy). Never throws: every failure is a result.
 * A 2xx, or a body containing `[accepted]`, accepts.
 */
export async function sendNotification(
  webhook: Webhook,
  merchantAccount: string,
  payload: string,
  vault: CardVault,
  options: SendOptions,
  now: () => number = Date.now,
): Promise<SendResult> {
  const started = now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Math.max(0, Math.round(now() - started)) });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'payments-platform-webhooks/1' };
  if (webhook.username && webhook.encryptedPassword) {
    headers.authorization = `Basic ${Buffer.from(`${webhook.username}:${vault.decrypt(webhook.encryptedPassword)}`).toString('base64')}`;
  }
  try {
    const response = await outboundCall({
      url: webhook.url,
      method: 'POST',
      headers,
      body: payload,
      allowList: allowListOf(options.allowList, merchantAccount),
      allowPrivate: options.allowPrivate,
      allowLoopback: options.allowLoopback,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: MAX_BODY,
      overflow: 'truncate',
      certificates: certificatePolicyOf(webhook),
      ...(options.log && { log: options.log }),
    });
    const accepted = (response.status >= 200 && response.status < 300) || response.body.includes('[accepted]');
    return done({
      outcome: accepted ? 'accepted' : 'rejected',
      statusCode: response.status,
      error: accepted ? null : `answered ${response.status}`,
      body: response.body,
    });
  } catch (error) {
    return done({ outcome: 'error', statusCode: null, error: error instanceof Error ? error.message : 'connection failed', body: '' });
  }
}
