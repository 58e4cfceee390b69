/**
 * The breaking-change gate (scripts/spec-diff.mjs): each case takes the real bundled spec, makes
 * one change in memory and compares the two documents; then the script's runs, each in a folder of
 * its own (a git repository with the bundles committed, or none), so that they hold in any checkout.
 */
import { describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script without type declarations
import { AREAS, compareSpecs, formatResult, run as runGate } from '../../scripts/spec-diff.mjs';

type Json = Record<string, any>;
interface Change {
  type: string;
  action: string;
  pointer: string;
  where: string;
}
interface Result {
  changes: Change[];
  counts: Record<string, number>;
  breaking: number;
  majorRaised: boolean;
  ok: boolean;
}
const compare = compareSpecs as (before: Json, after: Json, options: { area: string; whole?: boolean }) => Result;
const format = formatResult as (result: Result) => string;
const run = runGate as (argv: string[], io: { cwd: string; log: (line: string) => void; error: (line: string) => void }) => number;

const load = (area: string): Json => JSON.parse(readFileSync(join(process.cwd(), 'generated', `${area}.json`), 'utf8')) as Json;
const checkout = load('checkout');
const management = load('management');
const schemas = (doc: Json) => doc.components.schemas as Record<string, Json>;

/** The real spec with one change. */
function changed(base: Json, change: (doc: Json) => void): Json {
  const doc = structuredClone(base);
  change(doc);
  return doc;
}

describe('The breaking-change gate compares two bundled specs', () => {
  test('When nothing changed, then there is no change and the gate passes', () => {
    const result = compare(checkout, structuredClone(checkout), { area: 'checkout' });
    expect(result.changes).toEqual([]);
    expect(result.ok).toBe(true);
  });

  test('When a response property is removed, then it is breaking and the gate fails', () => {
    const after = changed(checkout, (doc) => delete schemas(doc).PaymentResponse!.properties.pspReference);
    const result = compare(checkout, after, { area: 'checkout' });
    expect(result.changes).toContainEqual(
      expect.objectContaining({
        type: 'breaking',
        action: 'remove',
        pointer: '#/paths/~1payments/post/responses/200/content/application~1json/schema/properties/pspReference',
      }),
    );
    expect(result.ok).toBe(false);
    expect(format(result)).toMatch(/^checkout: FAIL/m);
  });

  test('When a required request property is added, then it is breaking and the gate fails', () => {
    const after = changed(checkout, (doc) => {
      const capture = schemas(doc).PaymentCaptureRequest!;
      capture.properties.captureReason = { type: 'string', maxLength: 80 };
      capture.required = [...capture.required, 'captureReason'];
    });
    const result = compare(checkout, after, { area: 'checkout' });
    expect(result.changes).toContainEqual(
      expect.objectContaining({
        type: 'breaking',
        pointer: expect.stringMatching(/captures\/post\/requestBody\/content\/application~1json\/schema\/required\//),
      }),
    );
    expect(result.ok).toBe(false);
  });

  test('When a value is removed from a request enum, then it is breaking and the gate fails', () => {
    const after = changed(checkout, (doc) => {
      const reason = schemas(doc).PaymentRefundRequest!.properties.merchantRefundReason;
      reason.enum = reason.enum.filter((v: string) => v !== 'OTHER');
    });
    const result = compare(checkout, after, { area: 'checkout' });
    expect(result.changes).toContainEqual(
      expect.objectContaining({
        type: 'breaking',
        action: 'remove',
        pointer: expect.stringMatching(/refunds\/post\/requestBody\/.*\/merchantRefundReason\/enum\//),
      }),
    );
    expect(result.ok).toBe(false);
  });

  test('When a type changes (an amount value becomes a string), then it is breaking in requests and responses', () => {
    const after = changed(checkout, (doc) => (schemas(doc).Amount!.properties.value.type = 'string'));
    const result = compare(checkout, after, { area: 'checkout' });
    const typeChanges = result.changes.filter((c) => c.pointer.endsWith('/amount/properties/value/type'));
    expect(typeChanges.some((c) => c.type === 'breaking' && c.pointer.includes('/requestBody/'))).toBe(true);
    expect(typeChanges.some((c) => c.type === 'breaking' && c.pointer.includes('/responses/'))).toBe(true);
    expect(typeChanges.every((c) => c.type === 'breaking')).toBe(true);
    expect(result.ok).toBe(false);
  });

  test('When a management response type changes, then it is breaking too', () => {
    const after = changed(management, (doc) => (schemas(doc).Webhook!.properties.active.type = 'string'));
    const result = compare(management, after, { area: 'management' });
    expect(result.breaking).toBeGreaterThan(0);
    expect(result.changes.filter((c) => c.pointer.endsWith('/active/type')).every((c) => c.type === 'breaking')).toBe(true);
  });

  test('When an optional request property is added, then it is non-breaking and the gate passes', () => {
    const after = changed(checkout, (doc) => (schemas(doc).PaymentCaptureRequest!.properties.captureReason = { type: 'string', maxLength: 80 }));
    const result = compare(checkout, after, { area: 'checkout' });
    expect(result.changes).toEqual([
      expect.objectContaining({
        type: 'non-breaking',
        action: 'add',
        pointer: expect.stringMatching(/captures\/post\/requestBody\/.*\/properties\/captureReason$/),
      }),
    ]);
    expect(result.ok).toBe(true);
    expect(format(result)).toMatch(/^checkout: OK/m);
  });

  test('When a breaking change comes with a raised info.version major, then the gate passes', () => {
    const after = changed(checkout, (doc) => {
      delete schemas(doc).PaymentResponse!.properties.pspReference;
      doc.info.version = '72';
    });
    const result = compare(checkout, after, { area: 'checkout' });
    expect(result.breaking).toBeGreaterThan(0);
    expect(result.majorRaised).toBe(true);
    expect(result.ok).toBe(true);
  });

  test('When a webhook payload loses a property, then it is breaking for the receiver', () => {
    const after = changed(checkout, (doc) => delete schemas(doc).NotificationRequestItem!.properties.merchantReference);
    const result = compare(checkout, after, { area: 'checkout' });
    expect(result.changes).toContainEqual(
      expect.objectContaining({
        type: 'breaking',
        pointer: expect.stringMatching(/^#\/webhooks\/standardNotification\/post\/requestBody\/.*\/merchantReference$/),
      }),
    );
  });

  test('When only the paths that differ are compared, then the changes are exactly those of the whole documents', () => {
    // A schema many paths reach through references, one a single path uses, a removed path and a webhook payload.
    const after = changed(checkout, (doc) => {
      schemas(doc).Amount!.properties.value.type = 'number';
      delete schemas(doc).PaymentCaptureRequest!.properties.reference;
      delete doc.paths['/cardDetails'];
      const webhook = Object.values(doc.webhooks as Record<string, Json>)[0]!;
      webhook.post.requestBody.description = 'changed';
    });
    const pruned = compare(checkout, after, { area: 'checkout' });
    expect(pruned.changes.length).toBeGreaterThan(10);
    expect(pruned).toEqual(compare(checkout, after, { area: 'checkout', whole: true }));
  });
});

describe('npm run spec:diff', () => {
  /** A folder holding this project's generated/*.json, made a git repository with them committed when `committed`. */
  function tree(committed: boolean): string {
    const dir = mkdtempSync(join(tmpdir(), 'spec-diff-'));
    mkdirSync(join(dir, 'generated'));
    for (const area of AREAS) copyFileSync(join(process.cwd(), 'generated', `${area}.json`), join(dir, 'generated', `${area}.json`));
    if (committed) {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
          cwd: dir,
          stdio: 'ignore',
        });
      git('init', '-q');
      git('add', 'generated');
      git('commit', '-q', '-m', 'baseline');
    }
    return dir;
  }
  const runIn = (cwd: string, argv: string[]) => {
    const out: string[] = [];
    const code = run(argv, { cwd, log: (line: string) => out.push(line), error: (line: string) => out.push(line) });
    return { code, output: out.join('\n') };
  };

  test('When the working tree matches HEAD, then it prints a summary per area and exits 0', () => {
    const dir = tree(true);
    const { code, output } = runIn(dir, ['HEAD']);
    rmSync(dir, { recursive: true, force: true });
    expect(output).toMatch(/^spec:diff: generated\/\*\.json of the working tree against HEAD/m);
    expect(output).toMatch(/^checkout: OK/m);
    expect(output).toMatch(/^management: OK/m);
    expect(code).toBe(0);
  });

  test('When the working tree removes a response property that HEAD has, then it names the area that fails and exits 1', () => {
    const dir = tree(true);
    const file = join(dir, 'generated', 'checkout.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
    delete schemas(doc).PaymentResponse!.properties.pspReference;
    writeFileSync(file, JSON.stringify(doc));
    const { code, output } = runIn(dir, ['HEAD']);
    rmSync(dir, { recursive: true, force: true });
    expect(output).toMatch(/^checkout: FAIL/m);
    expect(output).toMatch(/^management: OK/m);
    expect(code).toBe(1);
  });

  test('When the tree is not a git checkout (an unpacked archive), then it says it skipped and exits 0', () => {
    const dir = tree(false);
    const { code, output } = runIn(dir, []);
    rmSync(dir, { recursive: true, force: true });
    expect(output).toMatch(/^spec:diff: skipped — not a git checkout/m);
    expect(code).toBe(0);
  });
});
