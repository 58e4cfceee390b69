import http from 'node:http';
import https from 'node:https';
import type { Logger } from '../logger.js';
import { type Destination, DestinationRefused, vetDestination } from './guard.js';
import { type OutboundFailure, OutboundError } from './outbound-error.js';
import { type CertificatePolicy, secureConnection } from './tls.js';

export interface OutboundRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** Hosts the caller may reach (see allowListOf). */
  allowList: string[];
  allowPrivate: boolean;
  /** Loopback hosts pass without an allow-list entry (webhooks in sandbox mode; see vetDestination). */
  allowLoopback?: boolean;
  timeoutMs: number;
  /** Past this the response fails (`fail`) or is cut (`truncate`). */
  maxResponseBytes: number;
  overflow: 'fail' | 'truncate';
  /**
   * TLS for webhooks: the receiver's certificate is checked against the public roots only, and
   * the faults the webhook accepts are tolerated (see tls.ts). Without it, Node's default check.
   */
  certificates?: CertificatePolicy;
  /** Check the destination and stop before sending. */
  dryRun?: boolean;
  /** Made on behalf of a request (forward, a webhook test): one log line with that request's id. */
  log?: OutboundLog;
}

export interface OutboundLog {
  logger: Logger;
  requestId: string;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export { type OutboundFailure, OutboundError };

/**
 * The one outbound HTTP client (forward and webhooks): the destination passes the guard first,
 * the connection goes to the vetted address whatever DNS answers later, redirects are never
 * followed (a 3xx is returned as it is), the timeout covers the whole exchange, and the
 * response size is capped.
 */
export async function outboundCall(request: OutboundRequest): Promise<OutboundResponse> {
  const log = request.log;
  if (!log) return send(request);
  const started = process.hrtime.bigint();
  const line = (fields: Record<string, unknown>) =>
    log.logger.info('outbound call', {
      requestId: log.requestId,
      method: request.method,
      host: hostOf(request.url),
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
      ...fields,
    });
  try {
    const response = await send(request);
    line({ status: response.status });
    return response;
  } catch (error) {
    line({ failure: error instanceof OutboundError ? error.kind : 'network' });
    throw error;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
}

async function send(request: OutboundRequest): Promise<OutboundResponse> {
  let destination: Destination;
  try {
    destination = await vetDestination(request.url, request.allowList, request.allowPrivate, request.allowLoopback);
  } catch (error) {
    throw new OutboundError('destination', error instanceof DestinationRefused ? error.message : 'destination not allowed');
  }
  if (request.dryRun) return { status: 0, headers: {}, body: '' };
  const secure = destination.url.protocol === 'https:';
  const client = secure ? https : http;
  const started = Date.now();
  // A certificate policy means the handshake is done and judged first: nothing is sent to a
  // receiver whose certificate is refused.
  const socket = secure && request.certificates ? await secureConnection(destination, request.certificates, request.timeoutMs) : undefined;
  const remainingMs = Math.max(1, request.timeoutMs - (Date.now() - started));
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      destination.url,
      {
        method: request.method,
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        timeout: remainingMs,
        ...(socket ? { createConnection: () => socket } : { lookup: (_host, _options, callback) => callback(null, destination.address, destination.family) }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let cut = false;
        response.on('data', (chunk: Buffer) => {
          if (cut) return;
          if (size + chunk.length > request.maxResponseBytes) {
            if (request.overflow === 'fail') {
              response.destroy();
              reject(new OutboundError('too-large', `the response is larger than ${request.maxResponseBytes} bytes`));
              return;
            }
            chunks.push(chunk.subarray(0, request.maxResponseBytes - size));
            cut = true;
            return;
          }
          size += chunk.length;
          chunks.push(chunk);
        });
        response.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', () => reject(new OutboundError('network', 'the response broke off')));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new OutboundError('timeout', `timed out after ${request.timeoutMs} ms`)));
    outgoing.on('error', (error) =>
      reject(
        error instanceof OutboundError
          ? error
          : new OutboundError('network', `could not be reached (${(error as NodeJS.ErrnoException).code ?? (error.message || 'error')})`),
      ),
    );
    outgoing.end(request.body);
  });
}
