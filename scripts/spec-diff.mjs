#!/usr/bin/env node
// `npm run spec:diff [-- <ref>]`: the breaking-change gate. It compares the bundled specs of the
// working tree (generated/checkout.json, generated/management.json) with the same files at a git
// ref — by default the merge base of HEAD with main, which on main itself is HEAD — using
// api-smart-diff, prints every change classified (breaking, non-breaking, deprecated, annotation,
// unclassified) with its place, and exits 1 when an area has a breaking change and its
// `info.version` major was not raised. `npm test` runs it with the other checks.
//
// On top of api-smart-diff's rules, from the consumer's side of a response (it reads what the
// server sends; api-smart-diff mirrors the request rules, which calls these non-breaking):
//   - a response property removed is breaking, even an optional one;
//   - a response property no longer required (no longer always sent) is breaking;
//   - a response `type` replaced is breaking unless it only narrows (number → integer).
// Webhook payloads (the checkout spec's `webhooks`) are read by the merchant's receiver, so they
// are compared as responses. Component changes are reported where they are used (every $ref is
// resolved into the operations), not a second time under components/.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiCompare } from 'api-smart-diff';

export const AREAS = ['checkout', 'management', 'clientside', 'console'];
export const TYPES = ['breaking', 'non-breaking', 'deprecated', 'annotation', 'unclassified'];

const WEBHOOK_PREFIX = 'webhook:';
const RESOLVED_COMPONENTS = new Set(['schemas', 'responses', 'parameters', 'requestBodies', 'headers', 'examples', 'links', 'callbacks', 'pathItems']);
const NAMED_CHILDREN = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const INDEXED_CHILDREN = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SINGLE_CHILD = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);

/**
 * The two documents without the paths that read the same in both, and without the resolved
 * components no remaining path uses: api-smart-diff resolves every reference of the whole
 * document, about 2 s for the checkout spec, and a path that reads the same, through every
 * component it refers to, has no change to report. A path stays when its own text differs or a
 * component it reaches through references does; the other sections stay whole.
 */
function onlyWhatDiffers(before, after) {
  if (!before?.paths || !after?.paths) return [before, after];
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  const refsOf = (value) => [...JSON.stringify(value ?? null).matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`);
  const component = (doc, key) => {
    const [kind, ...name] = key.split('/');
    return doc.components?.[kind]?.[name.join('/').replace(/~1/g, '/').replace(/~0/g, '~')];
  };
  /** Every component the documents reach from `start` through references, with the references of each. */
  const reach = (docs, start) => {
    const refs = new Map();
    const pending = [...start];
    while (pending.length > 0) {
      const key = pending.pop();
      if (refs.has(key)) continue;
      refs.set(key, new Set(docs.flatMap((doc) => refsOf(component(doc, key)))));
      pending.push(...refs.get(key));
    }
    return refs;
  };
  const edges = reach([before, after], [...refsOf(before.paths), ...refsOf(after.paths)]);
  // A component differs when its text does or one it refers to differs (to a fixed point).
  const differs = new Set([...edges.keys()].filter((key) => !same(component(before, key), component(after, key))));
  for (let grew = true; grew;) {
    grew = false;
    for (const [key, refs] of edges)
      if (!differs.has(key) && [...refs].some((ref) => differs.has(ref))) {
        differs.add(key);
        grew = true;
      }
  }
  const kept = [...new Set([...Object.keys(before.paths), ...Object.keys(after.paths)])].filter(
    (route) =>
      !same(before.paths[route], after.paths[route]) || [...refsOf(before.paths[route]), ...refsOf(after.paths[route])].some((ref) => differs.has(ref)),
  );
  const prune = (doc) => {
    const paths = Object.fromEntries(kept.filter((route) => route in doc.paths).map((route) => [route, doc.paths[route]]));
    // The resolved components the kept paths reach; the other kinds (security schemes) stay whole.
    const reached = reach([doc], refsOf(paths));
    const components = Object.fromEntries(
      Object.entries(doc.components ?? {}).map(([kind, entries]) =>
        RESOLVED_COMPONENTS.has(kind)
          ? [
              kind,
              Object.fromEntries(Object.entries(entries ?? {}).filter(([name]) => reached.has(`${kind}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`))),
            ]
          : [kind, entries],
      ),
    );
    return { ...doc, paths, ...(doc.components && { components }) };
  };
  return [prune(before), prune(after)];
}

/** The webhooks as pseudo-operations whose 200 response is the payload, so that they are compared from the receiver's side. */
function withWebhooksAsResponses(doc) {
  if (!doc || typeof doc !== 'object' || !doc.webhooks) return doc;
  const paths = { ...doc.paths };
  for (const [name, item] of Object.entries(doc.webhooks)) {
    const ops = {};
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!op || typeof op !== 'object' || !op.requestBody) continue;
      ops[method] = { operationId: op.operationId, responses: { 200: { description: 'payload', content: op.requestBody.content ?? {} } } };
    }
    paths[`${WEBHOOK_PREFIX}${name}`] = ops;
  }
  const { webhooks: _webhooks, ...rest } = doc;
  return { ...rest, paths };
}

/** Splits the part of a diff path below a schema into the field it is about and the keyword changed. */
function schemaPlace(parts) {
  const field = [];
  let i = 0;
  let last = { kind: 'schema' };
  while (i < parts.length) {
    const key = String(parts[i]);
    if (NAMED_CHILDREN.has(key) && i + 1 < parts.length) {
      field.push(String(parts[i + 1]));
      last = { kind: 'property', name: String(parts[i + 1]) };
      i += 2;
    } else if (INDEXED_CHILDREN.has(key) && i + 1 < parts.length) {
      field.push(`(${key} ${parts[i + 1]})`);
      last = { kind: 'branch' };
      i += 2;
    } else if (SINGLE_CHILD.has(key)) {
      field.push(key === 'items' ? '[]' : `(${key})`);
      last = { kind: 'schema' };
      i += 1;
    } else {
      last = { kind: 'keyword', keyword: key, index: parts[i + 1] };
      break;
    }
  }
  return { field: field.join('.').replace(/\.\[\]/g, '[]'), last };
}

const typeSet = (value) => new Set((Array.isArray(value) ? value : [value]).filter((t) => typeof t === 'string'));

/** Whether every type of `after` was already allowed by `before` (integer is within number). */
function onlyNarrows(before, after) {
  const allowed = typeSet(before);
  return [...typeSet(after)].every((t) => allowed.has(t) || (t === 'integer' && allowed.has('number')));
}

/** Where a change is, for people: `POST /payments response 200 body amount.value`, and the consumer-side rule if one applied. */
function describePlace(path) {
  const [root, route, method, section, ...rest] = path.map(String);
  if (root !== 'paths') return { where: path.join('.'), response: false, parts: [] };
  const webhook = route?.startsWith(WEBHOOK_PREFIX);
  const operation = webhook ? `webhook ${route.slice(WEBHOOK_PREFIX.length)}` : `${method ? method.toUpperCase() : ''} ${route}`.trim();
  if (section === 'responses') {
    const [status, content, mediaType, schema, ...schemaParts] = rest;
    const label = webhook ? 'payload' : `response ${status ?? ''}`.trim();
    if (content === 'content' && schema === 'schema') {
      const place = schemaPlace(schemaParts);
      return { where: `${operation} ${label} ${mediaType}${place.field ? ` ${place.field}` : ''}`, response: true, place };
    }
    return { where: `${operation} ${label}`, response: false };
  }
  if (section === 'requestBody') {
    const [content, mediaType, schema, ...schemaParts] = rest;
    if (content === 'content' && schema === 'schema') {
      const place = schemaPlace(schemaParts);
      return { where: `${operation} request ${mediaType}${place.field ? ` ${place.field}` : ''}`, response: false, place };
    }
    return { where: `${operation} request body`, response: false };
  }
  if (section === 'parameters') return { where: `${operation} parameter ${rest[0] ?? ''}`.trim(), response: false };
  return { where: `${operation}${section ? ` ${section}` : ''}`, response: false };
}

/** The consumer-side rules for responses (see the header); undefined when api-smart-diff's type stands. */
function responseRule(diff, place) {
  const { last } = place;
  if (diff.action === 'remove' && last.kind === 'property') return { type: 'breaking', reason: 'a response property consumers may read is gone' };
  if (diff.action === 'remove' && last.kind === 'keyword' && last.keyword === 'required')
    return { type: 'breaking', reason: 'a response property is no longer always sent' };
  if (diff.action === 'replace' && last.kind === 'keyword' && last.keyword === 'type' && last.index === undefined && !onlyNarrows(diff.before, diff.after)) {
    return { type: 'breaking', reason: 'a response value changes type' };
  }
  return undefined;
}

const pointer = (path) => `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The major of an `info.version` (`71`, `3.1.0`, `v2`), or undefined. */
export function majorOf(version) {
  const match = /^v?(\d+)/.exec(String(version ?? ''));
  return match ? Number(match[1]) : undefined;
}

/**
 * Compares two bundled OpenAPI documents of one area. Returns every change (classified, with its
 * JSON pointer and a readable place), the counts per class, the versions, and whether the area
 * passes the gate: no breaking change, or a raised `info.version` major. `whole: true` compares
 * every path, also those that read the same (slower, the same result).
 */
export function compareSpecs(before, after, { area = 'spec', whole = false } = {}) {
  const documents = [withWebhooksAsResponses(before), withWebhooksAsResponses(after)];
  const { diffs } = apiCompare(...(whole ? documents : onlyWhatDiffers(...documents)));
  const changes = [];
  for (const diff of diffs) {
    const path = diff.path ?? [];
    if (path[0] === 'components' && RESOLVED_COMPONENTS.has(String(path[1]))) continue;
    const place = describePlace(path);
    const rule = place.response && place.place ? responseRule(diff, place.place) : undefined;
    const shownPath = String(path[1] ?? '').startsWith(WEBHOOK_PREFIX)
      ? ['webhooks', String(path[1]).slice(WEBHOOK_PREFIX.length), path[2], 'requestBody', ...path.slice(5)]
      : path;
    changes.push({
      type: rule?.type ?? diff.type ?? 'unclassified',
      classifiedBy: rule ? 'consumer-side rule' : 'api-smart-diff',
      reason: rule?.reason,
      action: diff.action,
      pointer: pointer(shownPath),
      where: place.where,
      description: (diff.description ?? '').replace(
        /Response 200 content/g,
        String(path[1] ?? '').startsWith(WEBHOOK_PREFIX) ? 'webhook payload' : 'Response 200 content',
      ),
      before: diff.before,
      after: diff.after,
    });
  }
  const order = (t) => (TYPES.indexOf(t) === -1 ? TYPES.length : TYPES.indexOf(t));
  changes.sort((a, b) => order(a.type) - order(b.type) || a.pointer.localeCompare(b.pointer));
  const counts = Object.fromEntries(TYPES.map((t) => [t, changes.filter((c) => c.type === t).length]));
  const versions = { before: before?.info?.version, after: after?.info?.version };
  const majorBefore = majorOf(versions.before);
  const majorAfter = majorOf(versions.after);
  const majorRaised = majorBefore !== undefined && majorAfter !== undefined && majorAfter > majorBefore;
  const breaking = counts.breaking;
  return { area, changes, counts, versions, majorRaised, breaking, ok: breaking === 0 || majorRaised };
}

const short = (value) => {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** The report of one area: one line per change (and its pointer), then the summary line. */
export function formatResult(result) {
  const lines = [];
  for (const c of result.changes) {
    const values =
      c.action === 'replace'
        ? ` (${short(c.before)} → ${short(c.after)})`
        : c.action === 'add'
          ? ` (${short(c.after)})`
          : c.action === 'remove'
            ? ` (was ${short(c.before)})`
            : '';
    lines.push(
      `  ${c.type.padEnd(12)} ${c.action.padEnd(7)} ${c.where}${values}${c.description ? ` — ${c.description}` : ''}${c.reason ? ` [${c.reason}]` : ''}`,
    );
    lines.push(`  ${''.padEnd(12)} ${''.padEnd(7)} at ${c.pointer}`);
  }
  const counts = TYPES.map((t) => `${result.counts[t]} ${t}`).join(', ');
  const version =
    result.versions.before === result.versions.after
      ? `info.version ${result.versions.after}`
      : `info.version ${result.versions.before} → ${result.versions.after}`;
  let verdict;
  if (result.breaking === 0) verdict = 'OK';
  else if (result.majorRaised) verdict = 'OK (breaking changes with a new major version)';
  else verdict = `FAIL (breaking changes: raise the major of info.version, now ${result.versions.after}, or keep the old contract)`;
  lines.push(`${result.area}: ${verdict} — ${result.changes.length} changes: ${counts}; ${version}`);
  return lines.join('\n');
}

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function git(args, cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** The default baseline: the merge base of HEAD with main (or origin/main); HEAD when neither exists. */
export function defaultRef(cwd = root) {
  for (const branch of ['main', 'origin/main']) {
    try {
      return { ref: git(['merge-base', 'HEAD', branch], cwd).trim(), label: `the merge base of HEAD and ${branch}` };
    } catch {
      // try the next
    }
  }
  return { ref: 'HEAD', label: 'HEAD (no main branch to find a merge base with)' };
}

/** Runs the gate; returns the exit code. */
export function run(argv = process.argv.slice(2), { cwd = root, log = console.log, error = console.error } = {}) {
  if (argv.includes('--help') || argv.includes('-h')) {
    log('usage: npm run spec:diff [-- <git ref>]   (default: git merge-base HEAD main)');
    return 0;
  }
  try {
    git(['rev-parse', '--git-dir'], cwd);
  } catch {
    log('spec:diff: skipped — not a git checkout, so there is no baseline to compare with');
    return 0;
  }
  const given = argv.find((a) => !a.startsWith('-'));
  const { ref, label } = given ? { ref: given, label: given } : defaultRef(cwd);
  let commit;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd).trim();
  } catch {
    error(`spec:diff: ${ref} is not a commit`);
    return 2;
  }
  log(`spec:diff: generated/*.json of the working tree against ${label} (${commit.slice(0, 12)})`);
  let failed = false;
  for (const area of AREAS) {
    const file = `generated/${area}.json`;
    if (!existsSync(join(cwd, file))) {
      error(`spec:diff: ${file} is missing; run \`npm run generate\``);
      return 2;
    }
    const after = JSON.parse(readFileSync(join(cwd, file), 'utf8'));
    let before;
    try {
      before = JSON.parse(git(['show', `${commit}:${file}`], cwd));
    } catch {
      log(`${area}: OK — no ${file} at ${ref}: nothing to compare`);
      continue;
    }
    const result = compareSpecs(before, after, { area });
    log(formatResult(result));
    if (!result.ok) failed = true;
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = run();
}
