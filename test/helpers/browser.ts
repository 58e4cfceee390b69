/**
 * The one way the tests get a browser: headless Chromium from the npm package
 * @sparticuz/chromium (scripts/chromium.mjs unpacks and launches it; no system package). A test
 * file launches it once in beforeAll and opens a context or page per test; the launch options are
 * exported as well, for a setup that shares one browser between files (`chromium.launchServer`).
 */
import type { Browser } from 'playwright-core';
import { chromiumLaunchOptions, launchChromium } from '../../scripts/chromium.mjs';

export { chromiumLaunchOptions };

/** Launches headless Chromium; close it in afterAll. Fails with what went wrong and how to fix it. */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}
