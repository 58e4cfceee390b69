import { isIP } from 'node:net';
import tls, { type PeerCertificate, type TLSSocket } from 'node:tls';
import type { Destination } from './guard.js';
import { OutboundError } from './outbound-error.js';

/**
 * Which certificate faults a webhook accepts (Adyen's `acceptsExpiredCertificate`,
 * `acceptsSelfSignedCertificate`, `acceptsUntrustedRootCertificate`), and the lowest TLS
 * version (`encryptionProtocol`). A certificate for another host name is never accepted.
 */
export interface CertificatePolicy {
  expired: boolean;
  selfSigned: boolean;
  untrustedRoot: boolean;
  minVersion: 'TLSv1.2' | 'TLSv1.3';
}

/** OpenSSL's verdicts on a chain, by the fault they stand for. */
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT']);
const UNTRUSTED_ROOT = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

const isSelfSigned = (cert: PeerCertificate & { issuerCertificate?: PeerCertificate }) =>
  cert.issuerCertificate !== undefined && cert.issuerCertificate.fingerprint256 === cert.fingerprint256;

const outOfDate = (cert: PeerCertificate, now: Date) => now < new Date(cert.valid_from) || now > new Date(cert.valid_to);

/**
 * Why the receiver's certificate is refused under the policy, or undefined when it is accepted.
 * Each fault is decided on its own (OpenSSL reports only one): the dates and whether the
 * certificate signs itself are read from the certificate, the chain from OpenSSL's verdict.
 */
export function certificateFault(
  verdict: { authorized: boolean; code: string | undefined; cert: PeerCertificate & { issuerCertificate?: PeerCertificate } },
  host: string,
  policy: CertificatePolicy,
  now = new Date(),
): string | undefined {
  if (verdict.authorized) return undefined;
  const { cert, code } = verdict;
  if (!cert || Object.keys(cert).length === 0) return 'the receiver sent no certificate';
  if (tls.checkServerIdentity(host, cert)) return `the receiver's certificate is not for ${host}`;
  if (outOfDate(cert, now) && !policy.expired) return "the receiver's certificate has expired or is not yet valid (acceptsExpiredCertificate is false)";
  if ((isSelfSigned(cert) || (code !== undefined && SELF_SIGNED.has(code))) && !policy.selfSigned)
    return "the receiver's certificate is self-signed (acceptsSelfSignedCertificate is false)";
  if (code !== undefined && UNTRUSTED_ROOT.has(code) && !isSelfSigned(cert) && !policy.untrustedRoot)
    return "the receiver's certificate does not chain to a trusted root (acceptsUntrustedRootCertificate is false)";
  if (code !== undefined && !SELF_SIGNED.has(code) && !UNTRUSTED_ROOT.has(code) && !EXPIRED.has(code))
    return `the receiver's certificate was refused (${code})`;
  return undefined;
}

/**
 * Opens a TLS connection to the vetted address and judges the receiver's certificate before
 * anything is sent. Trust is the public roots Node ships (`tls.rootCertificates`), as a public
 * webhook sender's would be: certificates trusted only through this process's own CA settings
 * (NODE_EXTRA_CA_CERTS) count as untrusted or self-signed here.
 */
export function secureConnection(destination: Destination, policy: CertificatePolicy, timeoutMs: number): Promise<TLSSocket> {
  const host = destination.url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: destination.address,
      port: Number(destination.url.port || 443),
      ...(isIP(host) === 0 && { servername: host }),
      ca: [...tls.rootCertificates],
      minVersion: policy.minVersion,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => socket.destroy(new OutboundError('timeout', `timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const error = socket.authorizationError as unknown;
      const fault = certificateFault(
        {
          authorized: socket.authorized,
          code: typeof error === 'string' ? error : error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : undefined,
          cert: socket.getPeerCertificate(true),
        },
        host,
        policy,
      );
      if (!fault) return resolve(socket);
      socket.destroy();
      reject(new OutboundError('certificate', fault));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error instanceof OutboundError ? error : new OutboundError('network', `could not be reached (${error.code ?? (error.message || 'error')})`));
    });
  });
}
