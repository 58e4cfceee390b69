/**
 * The one way the tests get a browser: headless Chromium from the npm package
 * @sparticuz/chromium (scripts/chromium.mjs unpacks and launches it; no system package). A test
 * file launches it once in beforeAll and opens a context or page per test; the launch options are
 * exported as well, for a setup that shares one browser between files (`chromium.launchServer`).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromiumLaunchOptions, launchChromium } from '../../scripts/chromium.mjs';

export { chromiumLaunchOptions };

export interface BrowserOptions {
  /**
   * Trust the test certificate (test/fixtures/tls), which the sandbox serves under
   * `startServer({}, { https: true })`, as if a CA had signed it. Not Playwright's
   * `ignoreHTTPSErrors`: that answers each certificate error of each new connection, and under load
   * Chromium gives a frame up after too many such restarts (net::ERR_TOO_MANY_RETRIES).
   */
  trustTestCertificate?: boolean;
}

/** Launches headless Chromium; close it in afterAll. Fails with what went wrong and how to fix it. */
export function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  return launchChromium(options.trustTestCertificate ? [`--ignore-certificate-errors-spki-list=${testCertificateKeyHash()}`] : []);
}

/** The SHA-256 of the test certificate's public key (its SubjectPublicKeyInfo), base64, as Chromium's flag takes it. */
function testCertificateKeyHash(): string {
  const certificate = new X509Certificate(readFileSync(join(process.cwd(), 'test', 'fixtures', 'tls', 'localhost.crt')));
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}
