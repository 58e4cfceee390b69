/**
 * The reference page's first view: every operation of an area's bundled spec as plain HTML, sent
 * inside the page itself. Scalar needs some 3–4 s of a laptop core to turn a 470 KB spec into its
 * interactive page; this view is readable as soon as the HTML has arrived (bench/docs.mjs measures
 * both), needs no script, and stays on screen until Scalar has drawn its own (pages.ts).
 *
 * It shows what a reader looks for first: per tag, each operation's method, path, summary and
 * description, its parameters, the top level of its request body and its responses. Nested
 * schemas, examples and "Try it" are Scalar's. Markdown is rendered by micromark, which escapes
 * any HTML in the text.
 */
interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  deprecated?: boolean;
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { $ref?: string; description?: string }>;
}
export interface ReferenceSpec {
  info?: { title?: string; version?: string; description?: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
let micromark: ((text: string) => string) | undefined;
/**
 * Loads the Markdown renderer, before the first page is rendered: a server that nobody asks for
 * its API reference does not load it at start.
 */
export async function loadMarkdown(): Promise<void> {
  micromark ??= (await import('micromark')).micromark;
}
const markdown = (text: string | undefined) => {
  if (!micromark) throw new Error('loadMarkdown() must finish before a first view is rendered');
  return text ? micromark(text) : '';
};
/** A heading-safe anchor: operationIds are identifiers already; tag names may hold spaces. */
const anchor = (prefix: string, name: string) => `${prefix}-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

/** The component a local `$ref` points at (`#/components/schemas/Amount`), or the value itself. */
function resolve<T extends { $ref?: string }>(spec: ReferenceSpec, value: T | undefined): T | undefined {
  let current = value;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(current.$ref) ?? [];
    current = (section && name ? spec.components?.[section]?.[name] : undefined) as T | undefined;
  }
  return current;
}

/** A schema's type in a few words: `Amount`, `array of LineItem`, `string (one of 3)`, `integer (int64)`. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').pop()!;
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map(typeOf).join(' | ');
  if (schema.allOf?.length === 1) return typeOf(schema.allOf[0]);
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join(' | ') : (schema.type ?? 'any');
  if (type === 'array') return `array of ${typeOf(schema.items) || 'any'}`;
  if (schema.enum) return `${type} (one of ${schema.enum.length})`;
  return schema.format ? `${type} (${schema.format})` : type;
}

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

const name = (text: string, required: boolean | undefined, deprecated?: boolean) =>
  `<code>${escape(text)}</code>${required ? ' <span class="req">required</span>' : ''}${deprecated ? ' <span class="dep">deprecated</span>' : ''}`;

function operationHtml(spec: ReferenceSpec, method: string, path: string, op: Operation): string {
  const parameters = (op.parameters ?? [])
    .map((p) => resolve(spec, p))
    .filter((p): p is Parameter => p !== undefined)
    .map((p) => [name(p.name, p.required), escape(p.in), escape(typeOf(p.schema)), markdown(p.description)]);
  const body = resolve(spec, op.requestBody);
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  const bodySchema = resolve(spec, media?.schema);
  const required = new Set(bodySchema?.required ?? []);
  const fields = Object.entries(bodySchema?.properties ?? {}).map(([field, schema]) => {
    const described = resolve(spec, schema);
    return [name(field, required.has(field), described?.deprecated), escape(typeOf(schema)), markdown(schema.description ?? described?.description)];
  });
  const responses = Object.entries(op.responses ?? {}).map(([status, response]) => [
    `<code>${escape(status)}</code>`,
    markdown(resolve(spec, response)?.description),
  ]);
  const bodyLead = bodySchema
    ? `<h4>Request body <small>${escape(mediaType ?? '')}${media?.schema?.$ref ? `, ${escape(typeOf(media.schema))}` : ''}</small></h4>`
    : '';
  return `<article class="op" id="${anchor('op', op.operationId ?? `${method}-${path}`)}">
<h3>${escape(op.summary ?? path)}${op.deprecated ? ' <span class="dep">deprecated</span>' : ''}</h3>
<p class="route"><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></p>
${markdown(op.description)}
${parameters.length ? `<h4>Parameters</h4>${table(['Name', 'In', 'Type', 'Description'], parameters)}` : ''}
${bodyLead}${table(['Field', 'Type', 'Description'], fields)}
${responses.length ? `<h4>Responses</h4>${table(['Status', 'Description'], responses)}` : ''}
</article>`;
}

interface Listed {
  method: string;
  path: string;
  op: Operation;
}

/** Operations grouped by their first tag, in the order of the spec's tag list, then untagged ones. */
function byTag(spec: ReferenceSpec, items: Record<string, Record<string, unknown>>): Map<string, Listed[]> {
  const groups = new Map<string, Listed[]>((spec.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(items))
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op || typeof op !== 'object') continue;
      const tag = op.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, op });
    }
  for (const [tag, listed] of groups) if (listed.length === 0) groups.delete(tag);
  return groups;
}

/** The navigation and the content of the first view; `intro` is Markdown shown above the operations. */
export function firstView(spec: ReferenceSpec, intro: string): { nav: string; main: string } {
  const groups = byTag(spec, spec.paths);
  const described = new Map((spec.tags ?? []).map((t) => [t.name, t.description]));
  let nav = '';
  let main = `<section class="intro"><h1>${escape(spec.info?.title ?? 'API reference')} <small>${escape(spec.info?.version ?? '')}</small></h1>${markdown(intro)}${markdown(spec.info?.description)}</section>`;
  for (const [tag, listed] of groups) {
    nav += `<h2><a href="#${anchor('tag', tag)}">${escape(tag)}</a></h2><ul>${listed
      .map(
        ({ method, path, op }) =>
          `<li><a href="#${anchor('op', op.operationId ?? `${method}-${path}`)}"><span class="m ${method}">${method.toUpperCase()}</span> ${escape(op.summary ?? path)}</a></li>`,
      )
      .join('')}</ul>`;
    main += `<section class="tag" id="${anchor('tag', tag)}"><h2>${escape(tag)}</h2>${markdown(described.get(tag))}${listed.map(({ method, path, op }) => operationHtml(spec, method, path, op)).join('\n')}</section>`;
  }
  const hooks = byTag(spec, spec.webhooks ?? {});
  if (hooks.size > 0) {
    nav += `<h2><a href="#webhooks">Webhooks</a></h2>`;
    main += `<section class="tag" id="webhooks"><h2>Webhooks</h2>${[...hooks.values()]
      .flat()
      .map(({ method, path, op }) => operationHtml(spec, method, path, op))
      .join('\n')}</section>`;
  }
  return { nav, main };
}

/** The first view's stylesheet: small, system fonts, readable at 360 px. */
export const FIRST_VIEW_STYLE = `*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1f;background:#fff}
.bar{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:.5rem 1rem;background:#f6f6f8;border-bottom:1px solid #ddd;font-size:14px}
.bar button{font:inherit;padding:.2rem .7rem;border:1px solid #888;border-radius:4px;background:#fff;cursor:pointer}.bar a{color:#0a58ca}
.fv{display:grid;grid-template-columns:17rem minmax(0,1fr)}nav.ops{position:sticky;top:2.6rem;height:calc(100vh - 2.6rem);overflow:auto;padding:.5rem 1rem;border-right:1px solid #eee;font-size:13px}
nav.ops h2{font-size:13px;margin:1rem 0 .3rem;text-transform:uppercase;letter-spacing:.03em}nav.ops ul{list-style:none;margin:0;padding:0}nav.ops li a{display:block;padding:.15rem 0;color:#1b1b1f;text-decoration:none}
nav.ops a:hover{text-decoration:underline}main.ref{padding:0 1.5rem 4rem;max-width:60rem}.intro h1{margin-top:1rem}
.op{border-top:1px solid #e4e4e7;padding:.5rem 0 1rem;content-visibility:auto;contain-intrinsic-size:auto 500px}.op h3{margin:.6rem 0 .2rem}
.m{display:inline-block;min-width:3.4em;font:600 11px/1.6 ui-monospace,monospace;text-align:center;border-radius:3px;color:#fff;background:#555}
.m.get{background:#0f6cbd}.m.post{background:#107c41}.m.patch{background:#8a5a00}.m.put{background:#8a5a00}.m.delete{background:#b3261e}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f2f2f4;padding:.05rem .25rem;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.3rem 0;font-size:14px}td,th{border-bottom:1px solid #eee;padding:.3rem .5rem;text-align:left;vertical-align:top}td p{margin:0}
h4{margin:.9rem 0 .2rem}small{color:#555;font-weight:normal}.req{color:#b3261e;font-size:12px}.dep{color:#8a5a00;font-size:12px}
@media (max-width:760px){.fv{display:block}nav.ops{position:static;height:auto;max-height:40vh;border:0;border-bottom:1px solid #ddd}main.ref{padding:0 1rem 3rem}td,th{padding:.25rem}}`;
