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
// same file (their `attributeTypeMap`s, the members of their union types and the endpoints of
// their services). Only names are written: which operation takes which schema; per schema each
// property with the schema of its object (or of the objects of its array or map), the name of a
// union (`paymentMethod`'s `PaymentRequestPaymentMethod`: owner and property), `oneOf` for a
// union whose members are not known, `null` for a scalar; per union its member schemas (each
// also under `schemas`); and per member the values its `type` takes.
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
  /** The schema a property holds objects of, its union (named by owner and property, as the libraries name it), `oneOf`, or null for a scalar. */
  const target = (prop, owner, name) => {
    if (!prop || typeof prop !== 'object') return null;
    if (prop.$ref) return nameOf(prop.$ref);
    const branches = prop.oneOf ?? prop.anyOf;
    if (branches) {
      if (!branches.every((b) => b.$ref)) return 'oneOf';
      const union = `${owner}${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      unions[union] = branches.map((b) => nameOf(b.$ref));
      return union;
    }
    if (prop.allOf?.length === 1) return target(prop.allOf[0], owner, name);
    if (prop.type === 'array') return target(prop.items, owner, name);
    if (prop.type === 'object' && prop.additionalProperties && typeof prop.additionalProperties === 'object')
      return target(prop.additionalProperties, owner, name);
    return null;
  };
  const unions = {};
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
    return Object.fromEntries(Object.entries(props).map(([p, s]) => [p, target(s, name, p)]));
  };
  const typesOf = (name) => schemas[name]?.properties?.type?.enum;
  return { source: `Adyen OpenAPI ${doc.info?.title ?? ''} ${doc.info?.version ?? ''}`.trim(), operations, propertiesOf, unions, typesOf };
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
  const types = new Map();
  const unions = {};
  for (const file of readdirSync(models).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(models, file), 'utf8');
    const name = /exports\.(\w+) = void 0/.exec(text)?.[1];
    const map = /\.attributeTypeMap = (\[[\s\S]*?\n\]);/.exec(text)?.[1];
    // A union (`oneOf`) is a type alias with a helper class named `<Type>Class` and no attributes;
    // its members are in the alias of its declaration file.
    if (name) classes.set(map ? name : name.replace(/Class$/, ''), map ? JSON.parse(map) : undefined);
    if (name && !map) {
      const union = name.replace(/Class$/, '');
      const declaration = readFileSync(join(models, file.replace(/\.js$/, '.d.ts')), 'utf8');
      const members = new RegExp(`export type ${union} = ([^;]+);`).exec(declaration)?.[1];
      if (members) unions[union] = members.split('|').map((m) => m.trim());
    }
    // The values of the class's `type` property: its `TypeEnum`.
    const typeEnum = /\(function \(TypeEnum\) \{([\s\S]*?)\}\)\(TypeEnum/.exec(text)?.[1];
    if (name && typeEnum)
      types.set(
        name,
        [...typeEnum.matchAll(/\] = "([^"]+)"/g)].map((m) => m[1]),
      );
  }
  /** "AccountInfo | null", "Array<LineItem>", "{ [key: string]: X; }" → X; a class without attributes is a union. */
  const target = (type) => {
    const bare = type
      .replace(/ \| null$/, '')
      .replace(/^Array<(.+)>$/, '$1')
      .replace(/^\{ \[key: string\]: (.+); \}$/, '$1')
      .replace(/^Array<(.+)>$/, '$1');
    if (!classes.has(bare)) return null;
    if (classes.get(bare) !== undefined) return bare;
    return unions[bare] ? bare : 'oneOf';
  };
  const propertiesOf = (name) => Object.fromEntries((classes.get(name) ?? []).map((a) => [a.baseName, target(a.type)]));
  const typesOf = (name) => types.get(name);
  return {
    source: `@adyen/api-library ${version} checkout models (generated from Adyen OpenAPI CheckoutService v71)`,
    operations,
    propertiesOf,
    unions,
    typesOf,
  };
}

const path = process.argv[2];
const { source, operations, propertiesOf, unions, typesOf } = path ? fromOpenApi(path) : fromLibrary();
const schemas = {};
const usedUnions = {};
const queue = [...new Set(Object.values(operations))];
while (queue.length > 0) {
  const name = queue.shift();
  if (schemas[name]) continue;
  schemas[name] = propertiesOf(name);
  for (const child of Object.values(schemas[name])) {
    if (!child || child === 'oneOf') continue;
    if (unions[child]) {
      usedUnions[child] = unions[child];
      for (const member of unions[child]) if (!schemas[member]) queue.push(member);
    } else if (!schemas[child]) queue.push(child);
  }
}
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const members = [...new Set(Object.values(usedUnions).flat())];
const fixture = {
  source,
  operations: sorted(operations),
  schemas: sorted(Object.fromEntries(Object.entries(schemas).map(([n, p]) => [n, sorted(p)]))),
  unions: sorted(usedUnions),
  types: sorted(Object.fromEntries(members.filter((m) => typesOf(m)).map((m) => [m, [...typesOf(m)].sort()]))),
};
// Written as Prettier writes it, so that `npm run lint` (prettier --check) takes the file as it is.
const prettier = await import('prettier');
writeFileSync(out, await prettier.format(JSON.stringify(fixture, null, 2), { ...(await prettier.resolveConfig(out)), filepath: out }));
console.log(
  `${out}: ${Object.keys(operations).length} operations, ${Object.keys(schemas).length} schemas, ${Object.keys(usedUnions).length} unions of ${members.length} members (${source})`,
);
