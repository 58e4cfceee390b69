#!/usr/bin/env node
// Writes test/fixtures/adyen-v71-request-properties.json: the property names of every request
// schema of Adyen's Checkout API v71, and of every object nested in them, so that
// test/contract/checkout/full-requests.test.ts can prove our spec accepts each of them.
//
//   node scripts/adyen-request-properties.mjs <path>/CheckoutService-v71.json   (preferred)
//   node scripts/adyen-request-properties.mjs                                    (no download)
//
// With a path it reads Adyen's OpenAPI file (github.com/Adyen/adyen-openapi, json/). Without one
// it reads the models of the Adyen Node library in node_modules, which are generated from that
// same file (their `attributeTypeMap`s and the endpoints of their services). Only names are
// written: which operation takes which schema, and per schema each property with the schema of
// its object (or of the objects of its array or map), `oneOf` for a union, `null` for a scalar.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'test/fixtures/adyen-v71-request-properties.json');

/** From Adyen's OpenAPI document. */
function fromOpenApi(path) {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  const schemas = doc.components.schemas;
  const nameOf = (ref) => ref.replace('#/components/schemas/', '');
  /** The schema a property holds objects of, `oneOf`, or null for a scalar. */
  const target = (prop) => {
    if (!prop || typeof prop !== 'object') return null;
    if (prop.$ref) return nameOf(prop.$ref);
    if (prop.oneOf || prop.anyOf) return 'oneOf';
    if (prop.allOf?.length === 1) return target(prop.allOf[0]);
    if (prop.type === 'array') return target(prop.items);
    if (prop.type === 'object' && prop.additionalProperties && typeof prop.additionalProperties === 'object') return target(prop.additionalProperties);
    return null;
  };
  const operations = {};
  for (const [url, item] of Object.entries(doc.paths)) {
    for (const method of ['post', 'patch', 'put']) {
      const ref = item[method]?.requestBody?.content?.['application/json']?.schema?.$ref;
      if (ref) operations[`${method.toUpperCase()} ${url}`] = nameOf(ref);
    }
  }
  const propertiesOf = (name) => {
    const schema = schemas[name];
    const props = { ...(schema?.properties ?? {}) };
    for (const part of schema?.allOf ?? []) Object.assign(props, part.$ref ? (schemas[nameOf(part.$ref)]?.properties ?? {}) : (part.properties ?? {}));
    return Object.fromEntries(Object.entries(props).map(([p, s]) => [p, target(s)]));
  };
  return { source: `Adyen OpenAPI ${doc.info?.title ?? ''} ${doc.info?.version ?? ''}`.trim(), operations, propertiesOf };
}

/** From the Adyen Node library's generated checkout models and services. */
function fromLibrary() {
  const lib = join(root, 'node_modules/@adyen/api-library');
  const version = JSON.parse(readFileSync(join(lib, 'package.json'), 'utf8')).version;
  const models = join(lib, 'lib/src/typings/checkout');
  const services = join(lib, 'lib/src/services/checkout');
  const operations = {};
  for (const file of readdirSync(services).filter((f) => f.endsWith('Api.js'))) {
    const text = readFileSync(join(services, file), 'utf8');
    for (const method of text.split(/\n\s*async /).slice(1)) {
      const url = /endpoint = `\$\{this\.baseUrl\}([^`]+)`/.exec(method)?.[1];
      const type = /ObjectSerializer\.serialize\(\w+, "(\w+)"\)/.exec(method)?.[1];
      const verb = /method: "(\w+)"/.exec(method)?.[1];
      if (url && type && verb) operations[`${verb} ${url}`] = type;
    }
  }
  const classes = new Map();
  for (const file of readdirSync(models).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(models, file), 'utf8');
    const name = /exports\.(\w+) = void 0/.exec(text)?.[1];
    const map = /\.attributeTypeMap = (\[[\s\S]*?\n\]);/.exec(text)?.[1];
    // A union (`oneOf`) is a type alias with a helper class named `<Type>Class` and no attributes.
    if (name) classes.set(map ? name : name.replace(/Class$/, ''), map ? JSON.parse(map) : undefined);
  }
  /** "AccountInfo | null", "Array<LineItem>", "{ [key: string]: X; }" → X; a class without attributes is a union. */
  const target = (type) => {
    const bare = type
      .replace(/ \| null$/, '')
      .replace(/^Array<(.+)>$/, '$1')
      .replace(/^\{ \[key: string\]: (.+); \}$/, '$1')
      .replace(/^Array<(.+)>$/, '$1');
    if (!classes.has(bare)) return null;
    return classes.get(bare) === undefined ? 'oneOf' : bare;
  };
  const propertiesOf = (name) => Object.fromEntries((classes.get(name) ?? []).map((a) => [a.baseName, target(a.type)]));
  return { source: `@adyen/api-library ${version} checkout models (generated from Adyen OpenAPI CheckoutService v71)`, operations, propertiesOf };
}

const path = process.argv[2];
const { source, operations, propertiesOf } = path ? fromOpenApi(path) : fromLibrary();
const schemas = {};
const queue = [...new Set(Object.values(operations))];
while (queue.length > 0) {
  const name = queue.shift();
  if (schemas[name]) continue;
  schemas[name] = propertiesOf(name);
  for (const child of Object.values(schemas[name])) if (child && child !== 'oneOf' && !schemas[child]) queue.push(child);
}
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const fixture = {
  source,
  operations: sorted(operations),
  schemas: sorted(Object.fromEntries(Object.entries(schemas).map(([n, p]) => [n, sorted(p)]))),
};
writeFileSync(out, `${JSON.stringify(fixture, null, 2)}\n`);
console.log(`${out}: ${Object.keys(operations).length} operations, ${Object.keys(schemas).length} schemas (${source})`);
