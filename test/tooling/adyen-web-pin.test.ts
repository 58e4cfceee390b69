/**
 * The pinned Adyen Web (devDependency @adyen/adyen-web) read as it ships: every client-side
 * address it builds, the secured-fields version its card fields ask for, and the messages our
 * secured-fields page posts to it. When an upgrade changes any of them this fails and says what
 * to look at, so that moving to another version is a deliberate step (spec, page and these lists).
 */
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
const library = join(root, 'node_modules', '@adyen', 'adyen-web');
const built = join(library, 'dist', 'es');

/** The version the sandbox's client-side area and secured-fields page were written against. */
const PINNED = '6.45.2';
/** The secured-fields protocol version our page (server/checkout/secured-fields/) speaks. */
const SECURED_FIELDS_VERSION = '6.3.0';

/**
 * Every address template the library builds with a client key (`?clientKey=` or `?token=`), as
 * read below: served by spec/clientside (its path there), or left out and why. Templates whose
 * whole path is an imported constant are counted apart.
 */
const ADDRESSES: Record<string, { served: string } | { leftOut: string }> = {
  'v1/sessions/{id}/setup?clientKey': { served: '/v1/sessions/{sessionId}/setup' },
  'v1/sessions/{id}/payments?clientKey': { served: '/v1/sessions/{sessionId}/payments' },
  'v1/sessions/{id}/paymentDetails?clientKey': { served: '/v1/sessions/{sessionId}/paymentDetails' },
  'v1/sessions/{id}/paymentMethodBalance?clientKey': { served: '/v1/sessions/{sessionId}/paymentMethodBalance' },
  'v1/sessions/{id}/orders?clientKey': { served: '/v1/sessions/{sessionId}/orders' },
  'v1/sessions/{id}/orders/cancel?clientKey': { served: '/v1/sessions/{sessionId}/orders/cancel' },
  'v3/bin/binLookup?token': { served: '/v3/bin/binLookup' },
  'v3/analytics?clientKey': { served: '/v3/analytics' },
  'v3/analytics/{}?clientKey': { served: '/v3/analytics/{checkoutAttemptId}' },
  'v1/sessions/{id}/donations?clientKey': { leftOut: 'donations after a session payment: not in the sandbox yet' },
  'v1/sessions/{id}/donationCampaigns?clientKey': { leftOut: 'donation campaigns: not in the sandbox yet' },
  'v1/submitThreeDS2Fingerprint?token': { served: '/v1/submitThreeDS2Fingerprint' },
  'v1/order/status?clientKey': { leftOut: 'order status for partial payments: not in the sandbox yet' },
  'services/PaymentInitiation/v1/status?clientKey': { served: '/services/PaymentInitiation/v1/status' },
  'v1/applePay/sessions?clientKey': { leftOut: 'Apple Pay needs Apple; the sandbox answers no Apple Pay session' },
  'v1/AmazonPayUtility/*': { leftOut: 'Amazon Pay needs Amazon' },
  'utility/v1/payPalFastlane/tokens?clientKey': { leftOut: 'PayPal Fastlane needs PayPal' },
  'utility/v1/pixpaybybank/redirect-result?clientKey': { leftOut: 'Pix pay by bank (Brazil): not in the sandbox' },
  'utility/v1/pixpaybybank/registration-options/{}?clientKey': { leftOut: 'Pix pay by bank (Brazil): not in the sandbox' },
};
/** Templates whose path is a constant imported from another module: Amazon Pay's three utility calls. */
const VARIABLE_TEMPLATES = 3;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? jsFiles(path) : entry.name.endsWith('.js') ? [path] : [];
  });
}

/** The address templates of the built library, their variables written as `{}` (a session's id as `{id}`). */
function addressTemplates(): { named: Set<string>; variable: number } {
  const named = new Set<string>();
  let variable = 0;
  for (const file of jsFiles(built)) {
    const code = readFileSync(file, 'utf8');
    for (const [, template, key] of code.matchAll(/`([^`]*?)\?(clientKey|token)=\$\{[^`]*`/g)) {
      // The sessions calls start with the API version constant (read from its module below); a
      // template that starts with a string constant of its own module (analytics) gets its value.
      const head = /^\$\{(\w+)\}/.exec(template!)?.[1];
      const constant = head && new RegExp(`(?:const |let |var |,)${head}="([^"]+)"`).exec(code)?.[1];
      const path = template!
        .replace(/^\$\{\w+\}\/sessions\/\$\{\w+\.id\}/, 'v1/sessions/{id}')
        .replace(/^\$\{\w+\}/, (whole) => constant ?? whole)
        .replace(/\$\{[^}]+\}/g, '{}');
      if (path === '{}' || path === '{}/{}') variable++;
      else named.add(`${path}?${key}`);
    }
    for (const [, name] of code.matchAll(/"v1\/AmazonPayUtility\/(\w+)"/g)) if (name) named.add('v1/AmazonPayUtility/*');
  }
  return { named, variable };
}

const specPaths = (): string[] => Object.keys((JSON.parse(readFileSync(join(root, 'generated', 'clientside.json'), 'utf8')) as { paths: object }).paths);

describe('The pinned Adyen Web', () => {
  test('When the installed library is read, then it is the version the client-side area was written against, pinned exactly', () => {
    const installed = (JSON.parse(readFileSync(join(library, 'package.json'), 'utf8')) as { version: string }).version;
    const declared = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[
      '@adyen/adyen-web'
    ];
    expect({ installed, declared }).toEqual({ installed: PINNED, declared: PINNED });
  });

  test('When its client-side addresses are read, then each is served by spec/clientside or deliberately left out, and no other exists', () => {
    const sessionsVersion = readFileSync(join(built, 'core', 'Services', 'sessions', 'constants.js'), 'utf8');
    expect(sessionsVersion).toMatch(/="v1"/);
    const { named, variable } = addressTemplates();
    const unknown = [...named].filter((address) => !(address in ADDRESSES));
    const gone = Object.keys(ADDRESSES).filter((address) => !named.has(address));
    expect({ unknown, gone, variable }).toEqual({ unknown: [], gone: [], variable: VARIABLE_TEMPLATES });
    const paths = specPaths();
    const unserved = Object.entries(ADDRESSES).flatMap(([address, fate]) =>
      'served' in fate && !paths.includes(fate.served) ? [`${address} → ${fate.served}`] : [],
    );
    expect(unserved).toEqual([]);
  });

  test('When its card fields are read, then they ask for the secured-fields version our page speaks, at the address our page is served on', () => {
    const constants = readFileSync(join(built, 'components', 'internal', 'SecuredFields', 'lib', 'constants.js'), 'utf8');
    expect(constants).toContain(`="${SECURED_FIELDS_VERSION}"`);
    const frameAddress = jsFiles(join(built, 'components', 'internal', 'SecuredFields'))
      .map((file) => readFileSync(file, 'utf8'))
      .some((code) => /securedfields\/\$\{[^}]+\}\/\$\{[^}]+\}\/securedFields\.html\?type=\$\{[^}]+\}&d=\$\{[^}]+\}/.test(code));
    expect(frameAddress).toBe(true);
  });

  test('When its images and translations are read, then it asks for them where the sandbox serves them (server/checkout/secured-fields/library-assets.ts)', () => {
    const code = jsFiles(built)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    // `{cdn.images}images/{folder}{subFolder}{parentFolder}{name}{size}.{extension}`
    expect(code).toMatch(/`\$\{\w+\}images\/\$\{\w+\}\$\{\w+\}\$\{\w+\}\$\{\w+\}\$\{\w+\}\.\$\{\w+\}`/);
    expect(code).toMatch(/imageFolder:"logos\/"/);
    // `{cdn.translations}sdk/{version}/translations/{locale}.json`, laid over its own en-US texts
    expect(code).toMatch(/path:`sdk\/\$\{this\.sdkVersion\}\/translations\/\$\{\w+\}\.json`/);
  });

  test('When our secured-fields page posts a message, then the library reads that action and the fields it carries', () => {
    const page = readFileSync(join(root, 'server', 'checkout', 'secured-fields', 'secured-fields.js'), 'utf8');
    const actions = [...new Set([...page.matchAll(/action(?:: |\s*=\s*)'(\w+)'/g)].map((m) => m[1]!))].sort();
    expect(actions.length).toBeGreaterThan(3);
    const parent = jsFiles(join(built, 'components', 'internal', 'SecuredFields'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unread = [...actions, 'numKey', 'fieldType'].filter((name) => !new RegExp(`["'.]${name}\\b`).test(parent));
    expect(unread.map((name) => `${name} (posted by server/checkout/secured-fields/secured-fields.js, not read by ${relative(root, built)})`)).toEqual([]);
  });
});
