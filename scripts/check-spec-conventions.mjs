#!/usr/bin/env node
// House conventions that a linter of one document cannot see (spec/README.md explains them):
//  1. a path file is named after its URL: /payments/{id}/captures -> paths/payments_{id}_captures.yaml;
//  2. every example file is used, and lives under examples/<operationId>/ or examples/errors/;
//  3. every operation has behaviour tests: "<METHOD> <path>" appears in a describe() under test/contract;
//  4. no test is committed with .only.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const walk = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));

const tests = walk(join(root, 'test')).filter((f) => f.endsWith('.ts'));
const testText = tests.map((f) => readFileSync(f, 'utf8')).join('\n');
for (const file of tests) {
  if (/\b(describe|test|it)\.only\(/.test(readFileSync(file, 'utf8'))) problems.push(`${relative(root, file)}: committed .only`);
}

for (const area of ['checkout', 'management', 'clientside', 'console']) {
  const specDir = join(root, 'spec', area);
  const rootDoc = parse(readFileSync(join(specDir, 'openapi.yaml'), 'utf8'));
  const referenced = new Set();
  for (const [url, item] of Object.entries(rootDoc.paths ?? {})) {
    const expected = `paths/${url.slice(1).replaceAll('/', '_')}.yaml`;
    if (item.$ref !== expected) problems.push(`${area}: ${url} should be in ${expected}, not ${item.$ref}`);
    const pathFile = join(specDir, item.$ref);
    const text = readFileSync(pathFile, 'utf8');
    for (const match of text.matchAll(/\$ref: (\.\.\/examples\/\S+)/g)) referenced.add(join(dirname(pathFile), match[1]));
    const doc = parse(text);
    for (const [method, op] of Object.entries(doc)) {
      const name = `${method.toUpperCase()} ${url}`;
      if (!testText.includes(`${name}'`) && !testText.includes(`${name} `) && !testText.includes(`${name},`)) {
        problems.push(`${area}: no describe() under test/contract names "${name}" (${op.operationId})`);
      }
      for (const match of text.matchAll(/examples\/([^/]+)\//g)) {
        if (match[1] !== 'errors' && !JSON.stringify(doc).includes(`"operationId":"${match[1]}"`))
          problems.push(`${area}: ${relative(root, pathFile)} uses examples of another operation (${match[1]})`);
      }
    }
  }
  for (const file of [...walk(join(specDir, 'components', 'responses')), ...(existsSync(join(specDir, 'webhooks')) ? walk(join(specDir, 'webhooks')) : [])]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\$ref: ((?:\.\.\/)+examples\/\S+)/g)) referenced.add(join(dirname(file), match[1]));
  }
  for (const file of walk(join(specDir, 'examples'))) {
    if (!referenced.has(file)) problems.push(`${area}: ${relative(root, file)} is not used by any operation`);
  }
}

if (problems.length > 0) {
  console.error(`Spec conventions: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('Spec conventions hold.');
