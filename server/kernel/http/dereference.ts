/**
 * Resolves every `$ref` of an OpenAPI document in place, with the result json-schema-ref-parser
 * 14 (what express-openapi-validator 5.6 dereferences with) gives for the references a bundled
 * document has: each `#/…` reference becomes its target object (the same object wherever it is
 * referred to, cycles kept as cycles), and a reference with sibling keys becomes a copy of the
 * target with those keys added, in the same order and precedence as the library's.
 *
 * Why: the library builds a JSON Pointer and a URL for every key it visits; on the management
 * document that is ~100 ms of a starting server's first answer, and this walk ~30 ms.
 * It takes only the references it can answer exactly as the library does: pointers into the
 * same document that pass through no other reference and land on an object that is not one
 * itself. For any other document it returns `undefined`, changes nothing, and the caller uses
 * the library. test/unit/dereference.test.ts compares the two on both bundled documents.
 */
export function dereferenceDocument(root: object): object | undefined {
  const targets = new Map<string, object>();
  if (!collectTargets(root, targets)) return undefined;

  type Result = { value: unknown; circular: boolean };
  const parents = new Set<unknown>();
  const processed = new Set<unknown>();
  const cache = new Map<string, Result>();

  const derefRef = (ref: Ref): Result => {
    const cached = cache.get(ref.$ref);
    if (cached) {
      if (!cached.circular) {
        if (Object.keys(ref).length === 1) return cached;
        // A cached target with siblings: the target's own keys win (the library's order).
        const extra: Record<string, unknown> = {};
        for (const key of Object.keys(ref)) if (key !== '$ref' && !(key in (cached.value as object))) extra[key] = ref[key];
        return { circular: false, value: Object.assign({}, cached.value, extra) };
      }
      if (!('$ref' in (cached.value as object) && '$ref' in ref) || (cached.value as Ref).$ref === ref.$ref) return cached;
    }
    const target = targets.get(ref.$ref)!;
    let circular = parents.has(target);
    let value: unknown = withSiblings(ref, target);
    if (!circular) {
      const crawled = crawl(value);
      circular = crawled.circular;
      value = crawled.value;
    }
    const result = { circular, value };
    if (Object.keys(ref).length === 1) cache.set(ref.$ref, result);
    return result;
  };

  const crawl = (node: unknown): Result => {
    const result: Result = { value: node, circular: false };
    if (processed.has(node) || node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return result;
    parents.add(node);
    processed.add(node);
    if (isRef(node)) {
      const resolved = derefRef(node);
      result.circular = resolved.circular;
      result.value = resolved.value;
    } else {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const child = record[key];
        // A child that is one of its own ancestors (already resolved) is a cycle.
        let circular = true;
        if (isRef(child) || !parents.has(child)) {
          const resolved = isRef(child) ? derefRef(child) : crawl(child);
          circular = resolved.circular;
          if (record[key] !== resolved.value) record[key] = resolved.value;
        }
        result.circular = result.circular || circular;
      }
    }
    parents.delete(node);
    return result;
  };

  return crawl(root).value as object;
}

type Ref = { $ref: string; [key: string]: unknown };

function isRef(value: unknown): value is Ref {
  return value !== null && typeof value === 'object' && typeof (value as { $ref?: unknown }).$ref === 'string' && (value as Ref).$ref.length > 0;
}

/** The library's `$Ref.dereference`: a reference with siblings is a new object, its own keys first. */
function withSiblings(ref: Ref, target: object): unknown {
  const keys = Object.keys(ref);
  if (keys.length === 1) return target;
  const merged: Record<string, unknown> = {};
  for (const key of keys) if (key !== '$ref') merged[key] = ref[key];
  for (const [key, value] of Object.entries(target)) if (!(key in merged)) merged[key] = value;
  return merged;
}

/**
 * Finds the target of every reference in the document before anything changes, and whether all
 * of them are of the kind handled here (see above).
 */
function collectTargets(root: object, targets: Map<string, object>): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return true;
    seen.add(node);
    if (isRef(node) && !targets.has(node.$ref)) {
      const target = pointerTarget(root, node.$ref);
      if (target === undefined) return false;
      targets.set(node.$ref, target);
    }
    for (const child of Object.values(node)) if (!visit(child)) return false;
    return true;
  };
  return visit(root);
}

function pointerTarget(root: object, pointer: string): object | undefined {
  if (!pointer.startsWith('#/')) return undefined;
  let value: unknown = root;
  for (const raw of pointer.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    } catch {
      return undefined;
    }
    if (value === null || typeof value !== 'object' || isRef(value) || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isRef(value) ? value : undefined;
}
