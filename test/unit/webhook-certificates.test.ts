import { describe, expect, test } from '@jest/globals';
import type { PeerCertificate } from 'node:tls';
import { type CertificatePolicy, certificateFault } from '../../server/kernel/outbound/tls.js';

// Certificates as Node describes a peer's: only the fields the judgement reads.
const cert = (overrides: Partial<PeerCertificate> & { selfSigned?: boolean } = {}) => {
  const { selfSigned = false, ...fields } = overrides;
  const leaf = {
    subject: { CN: 'hooks.example.com' },
    subjectaltname: 'DNS:hooks.example.com',
    valid_from: 'Jan  1 00:00:00 2020 GMT',
    valid_to: 'Jan  1 00:00:00 2120 GMT',
    fingerprint256: 'AA:01',
    ...fields,
  } as PeerCertificate & { issuerCertificate?: PeerCertificate };
  leaf.issuerCertificate = selfSigned ? leaf : ({ fingerprint256: 'BB:02' } as PeerCertificate);
  return leaf;
};
const strict: CertificatePolicy = { expired: false, selfSigned: false, untrustedRoot: false, minVersion: 'TLSv1.2' };
const host = 'hooks.example.com';

describe('Webhook receiver certificates', () => {
  test('When the chain is trusted, then the certificate is accepted whatever the policy', () => {
    expect(certificateFault({ authorized: true, code: undefined, cert: cert() }, host, strict)).toBeUndefined();
  });

  test.each([
    ['an expired certificate', cert({ valid_to: 'Jan  1 00:00:00 2021 GMT' }), 'CERT_HAS_EXPIRED', 'expired', 'acceptsExpiredCertificate'],
    ['a certificate from an unknown root', cert(), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'untrustedRoot', 'acceptsUntrustedRootCertificate'],
    ['a self-signed certificate', cert({ selfSigned: true }), 'DEPTH_ZERO_SELF_SIGNED_CERT', 'selfSigned', 'acceptsSelfSignedCertificate'],
  ] as Array<[string, ReturnType<typeof cert>, string, keyof CertificatePolicy, string]>)(
    'When the receiver presents %s, then it is refused unless the webhook accepts that fault',
    (_name, c, code, fault, setting) => {
      expect(certificateFault({ authorized: false, code, cert: c }, host, strict)).toContain(setting);
      expect(certificateFault({ authorized: false, code, cert: c }, host, { ...strict, [fault]: true })).toBeUndefined();
    },
  );

  test('When an expired certificate is also self-signed, then both faults must be accepted (OpenSSL names only one)', () => {
    const c = cert({ selfSigned: true, valid_to: 'Jan  1 00:00:00 2021 GMT' });
    expect(certificateFault({ authorized: false, code: 'CERT_HAS_EXPIRED', cert: c }, host, { ...strict, expired: true })).toContain('self-signed');
    expect(certificateFault({ authorized: false, code: 'CERT_HAS_EXPIRED', cert: c }, host, { ...strict, expired: true, selfSigned: true })).toBeUndefined();
  });

  test('When the certificate is for another host, then no setting admits it', () => {
    const everything = { ...strict, expired: true, selfSigned: true, untrustedRoot: true };
    expect(
      certificateFault({ authorized: false, code: 'DEPTH_ZERO_SELF_SIGNED_CERT', cert: cert({ selfSigned: true }) }, 'other.example.com', everything),
    ).toContain('not for other.example.com');
  });

  test('When OpenSSL refuses the chain for another reason, then no setting admits it', () => {
    const everything = { ...strict, expired: true, selfSigned: true, untrustedRoot: true };
    expect(certificateFault({ authorized: false, code: 'CERT_SIGNATURE_FAILURE', cert: cert() }, host, everything)).toContain('CERT_SIGNATURE_FAILURE');
  });
});
