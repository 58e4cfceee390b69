/**
 * The contract suite: for every operation of the specs, replay each request example and check
 * that the answer has the status of the paired response example and a body that validates
 * against that response's schema. It takes base URLs and credentials, so it runs against the
 * in-process server, the Prism mock, or any deployment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a `default` property; under native ESM the import is module.exports.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export type Area = 'checkout' | 'management' | 'clientside' | 'console';
/** The areas called with an API key (the client-side one takes client keys from a page). */
export type KeyedArea = Exclude<Area, 'clientside' | 'console'>;

interface Operation {
  area: Area;
  path: string;
  method: string;
  operationId: string;
  parameters: Array<{ name: string; in: string; example?: unknown }>;
}

export interface ExampleCase {
  area: Area;
  operation: Operation;
  scenario: string;
  status: number;
  /** The request body, undefined for operations without one. */
  body: unknown;
  /** How the body is sent. */
  mediaType: 'application/json' | 'multipart/form-data';
  /** JSON pointer into the bundled spec of the response body schema. */
  schemaPointer: string;
}

type Json = Record<string, any>;

export function loadBundled(area: Area): Json {
  return parse(readFileSync(join(process.cwd(), 'generated', `${area}.yaml`), 'utf8')) as Json;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function deref(spec: Json, node: Json): { node: Json; pointer: string | undefined } {
  if (typeof node?.$ref === 'string' && node.$ref.startsWith('#/')) {
    const parts = node.$ref
      .slice(2)
      .split('/')
      .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: any = spec;
    for (const part of parts) target = target[part];
    return { node: target, pointer: node.$ref };
  }
  return { node, pointer: undefined };
}

/** Every (operation, scenario) pair of a bundled spec, as the paired-examples lint rule guarantees them. */
export function exampleCases(area: Area, spec: Json = loadBundled(area)): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!op?.operationId) continue;
      const operation: Operation = {
        area,
        path,
        method: method.toUpperCase(),
        operationId: op.operationId,
        parameters: (op.parameters ?? []).map((p: Json) => deref(spec, p).node),
      };
      // Per response status: its example keys and where its JSON schema lives.
      const responses = Object.entries<Json>(op.responses).map(([status, ref]) => {
        const { node, pointer } = deref(spec, ref);
        const base = pointer ?? `#/paths/${escapePointer(path)}/${method}/responses/${status}`;
        // JSON, or the one other media type an answer has (the console's event stream).
        const mediaType = node.content?.['application/json'] ? 'application/json' : (Object.keys(node.content ?? {})[0] ?? 'application/json');
        const media = node.content?.[mediaType];
        return { status: Number(status), keys: Object.keys(media?.examples ?? {}), schemaPointer: `${base}/content/${escapePointer(mediaType)}/schema` };
      });
      const content: Json = op.requestBody?.content ?? {};
      const mediaType = (['multipart/form-data', 'application/json'] as const).find((m) => content[m]?.examples) ?? 'application/json';
      const requestExamples: Json | undefined = content[mediaType]?.examples;
      const empty = Object.entries<Json>(op.responses).find(([status, ref]) => Number(status) < 300 && !deref(spec, ref).node.content);
      if (requestExamples) {
        for (const [scenario, ref] of Object.entries<Json>(requestExamples)) {
          const paired = responses.filter((r) => r.keys.includes(scenario)).sort((a, b) => a.status - b.status)[0];
          const body = deref(spec, ref).node.value;
          if (paired) cases.push({ area, operation, scenario, status: paired.status, body, mediaType, schemaPointer: paired.schemaPointer });
          else if (empty) cases.push({ area, operation, scenario, status: Number(empty[0]), body, mediaType, schemaPointer: '' });
        }
      } else {
        for (const r of responses.filter((r) => r.status < 300)) {
          for (const scenario of r.keys)
            cases.push({ area, operation, scenario, status: r.status, body: undefined, mediaType, schemaPointer: r.schemaPointer });
        }
        // A success without a body (204) is replayed too; there is nothing to validate.
        if (empty) cases.push({ area, operation, scenario: 'no-content', status: Number(empty[0]), body: undefined, mediaType, schemaPointer: '' });
      }
    }
  }
  return cases;
}

/** An Ajv (JSON Schema 2020-12, as the spec declares) holding the bundled spec under `id`; schemas are `${id}#/pointer`. */
export function specAjv(area: Area, spec: Json = loadBundled(area)): { ajv: Ajv2020; id: string } {
  // Without ajv's optimizing passes each validator compiles in about half the time and validates as
  // fast (the server's validators are built the same way: server/kernel/http/validator.ts).
  const ajv = new Ajv2020({ strict: false, allErrors: true, code: { optimize: false } });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  const id = `https://contract.local/${area}.json`;
  ajv.addSchema({ ...spec, $id: id });
  return { ajv, id };
}

/** Validates bodies against the bundled spec's schemas with JSON Schema 2020-12, as the spec declares. */
export function responseValidator(area: Area, spec: Json = loadBundled(area)) {
  const { ajv, id } = specAjv(area, spec);
  return (pointer: string, body: unknown): string[] => {
    if (pointer === '') return body === undefined ? [] : ['a response without content has a body'];
    const validate = ajv.getSchema(`${id}${pointer}`) ?? ajv.compile({ $ref: `${id}${pointer}` });
    return validate(body) ? [] : (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  };
}

export interface Target {
  /** The client-side and console areas only where a suite calls them (with client keys from a page's Origin; with a session cookie or an API key). */
  baseUrl: Record<KeyedArea, string> & { clientside?: string; console?: string };
  headers: Record<string, string>;
  /** Ask a mock for the paired example (Prism's `Prefer` header). */
  preferExample: boolean;
}

export interface Arranged {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Files for multipart parts, by part name. */
  files?: Record<string, { name: string; content: Buffer }>;
}

/** A multipart body from an example: string parts as they are, file parts from `files` or the example text. */
function formData(example: Record<string, unknown>, files: Arranged['files'] = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(example)) {
    const file = files[name];
    if (file) form.append(name, new Blob([file.content]), file.name);
    else if (name === 'file') form.append(name, new Blob([String(value)]), 'upload.bin');
    else form.append(name, String(value));
  }
  return form;
}

/** Fills path and required query parameters: the arranged ones, else the parameter's own example. */
export function buildUrl(target: Target, c: ExampleCase, arranged: Arranged = {}): string {
  const param = (where: string, name: string) => c.operation.parameters.find((p) => p.in === where && p.name === name);
  const path = c.operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(String(arranged.path?.[name] ?? param('path', name)?.example)),
  );
  const query = new URLSearchParams();
  for (const p of c.operation.parameters.filter((p) => p.in === 'query' && (p as { required?: boolean }).required)) {
    query.set(p.name, String(arranged.query?.[p.name] ?? p.example));
  }
  const search = query.toString();
  return `${target.baseUrl[c.area] ?? ''}${path}${search ? `?${search}` : ''}`;
}

export async function replay(target: Target, c: ExampleCase, arranged: Arranged = {}) {
  const body = arranged.body ?? c.body;
  const multipart = c.mediaType === 'multipart/form-data' && body !== undefined;
  const response = await fetch(buildUrl(target, c, arranged), {
    method: c.operation.method,
    headers: {
      ...target.headers,
      ...(body !== undefined && !multipart && { 'Content-Type': 'application/json' }),
      ...(target.preferExample && { Prefer: `code=${c.status}, example=${c.scenario}` }),
    },
    ...(body !== undefined && { body: multipart ? formData(body as Record<string, unknown>, arranged.files) : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}
