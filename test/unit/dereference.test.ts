import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { dereferenceDocument } from '../../server/kernel/http/dereference.js';

// The library express-openapi-validator dereferences with (its own copy), as the validator calls it.
const requireFromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const RefParser = requireFromValidator('@apidevtools/json-schema-ref-parser') as { dereference(doc: object): Promise<object> };

const bundled = (area: string) => JSON.parse(readFileSync(`generated/${area}.json`, 'utf8')) as object;
const refsIn = (doc: unknown, seen = new Set<unknown>()): number => {
  if (doc === null || typeof doc !== 'object' || seen.has(doc)) return 0;
  seen.add(doc);
  return (typeof (doc as { $ref?: unknown }).$ref === 'string' ? 1 : 0) + Object.values(doc).reduce<number>((n, v) => n + refsIn(v, seen), 0);
};

describe('Dereferencing the documents the validators use', () => {
  test.each(['checkout', 'management'])(
    'When the bundled %s document is dereferenced, then it is the document json-schema-ref-parser gives, shared targets and all',
    async (area) => {
      const ours = dereferenceDocument(bundled(area));
      const library = await RefParser.dereference(bundled(area));
      expect(ours).toBeDefined();
      expect(refsIn(ours)).toBe(0);
      // isDeepStrictEqual compares the shapes of cycles too, not only the values.
      expect(isDeepStrictEqual(ours, library)).toBe(true);
    },
  );

  test('When references form a cycle, share a target or carry sibling keys, then the result is the library’s', async () => {
    const doc = () => ({
      openapi: '3.1.0',
      paths: {
        '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } },
        '/b': { get: { responses: { '200': { $ref: '#/components/responses/Ok' } } } },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            description: 'a node',
            properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, leaf: { $ref: '#/components/schemas/Leaf' } },
          },
          Leaf: { type: 'string', description: 'a leaf' },
          Pair: {
            type: 'object',
            properties: {
              first: { $ref: '#/components/schemas/Leaf', description: 'first' },
              second: { $ref: '#/components/schemas/Leaf' },
              third: { $ref: '#/components/schemas/Leaf', description: 'third', title: 'T' },
            },
          },
          'With~1slash': { type: 'integer' },
          Escaped: { $ref: '#/components/schemas/With~01slash' },
        },
        responses: { Ok: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pair' } } } } },
      },
    });
    const ours = dereferenceDocument(doc()) as ReturnType<typeof doc>;
    const library = (await RefParser.dereference(doc())) as ReturnType<typeof doc>;
    expect(isDeepStrictEqual(ours, library)).toBe(true);
    const node = ours.components.schemas.Node as unknown as { properties: { children: { items: unknown } } };
    expect(node.properties.children.items).toBe(node);
  });

  test('When a document refers outside itself, to a missing target or to an alias, then it is declined and left unchanged', () => {
    // An alias (a component that is itself a reference) is the library's to resolve.
    const alias = {
      paths: {},
      components: { schemas: { A: { type: 'string' }, B: { $ref: '#/components/schemas/A' }, C: { items: { $ref: '#/components/schemas/B' } } } },
    };
    const external = { paths: {}, components: { schemas: { A: { $ref: 'other.json#/components/schemas/B' } } } };
    const missing = { paths: {}, components: { schemas: { A: { properties: { b: { $ref: '#/components/schemas/B' } } } } } };
    const before = structuredClone([alias, external, missing]);
    for (const doc of [alias, external, missing]) expect(dereferenceDocument(doc)).toBeUndefined();
    expect([alias, external, missing]).toEqual(before);
  });
});
