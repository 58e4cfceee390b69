import type { Area } from '../errors.js';

/** What the bundled spec says of one operation that authorization needs before the body is read. */
export interface Route {
  area: Area;
  method: string;
  operationId: string;
  /** Whether the operation takes a request body at all. */
  hasBody: boolean;
  /** Whether the body is multipart (an upload): it must not be read before the caller is authorized. */
  multipart: boolean;
  pattern: RegExp;
  paramNames: string[];
  /** Literal segments: a more literal template wins over one with parameters in the same place. */
  literals: number;
}

export interface MatchedRoute {
  route: Route;
  params: Record<string, string>;
}

type SpecDocument = {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: { content?: Record<string, unknown> } }>>;
};

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * The operations of an area's bundled spec as a route table. The request pipeline looks the
 * operation up here first, so that authorization, rate limits and body rules run before any
 * body is parsed or any upload reaches the disk; the validator still does its own matching.
 */
export function routeTable(area: Area, spec: SpecDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    const segments = template.split('/').filter(Boolean);
    const paramNames: string[] = [];
    const source = segments
      .map((segment) => {
        const param = /^\{(.+)\}$/.exec(segment);
        if (param?.[1]) {
          paramNames.push(param[1]);
          return '([^/]+)';
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method) || !op.operationId) continue;
      const content = Object.keys(op.requestBody?.content ?? {});
      routes.push({
        area,
        method: method.toUpperCase(),
        operationId: op.operationId,
        hasBody: content.length > 0,
        multipart: content.includes('multipart/form-data'),
        pattern: new RegExp(`^/${source}/?$`),
        paramNames,
        literals: segments.length - paramNames.length,
      });
    }
  }
  return routes.sort((a, b) => b.literals - a.literals);
}

/** The operation at `method` and `path` (relative to the area's base), with its decoded path parameters. */
export function matchRoute(routes: readonly Route[], method: string, path: string): MatchedRoute | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      route.paramNames.forEach((name, i) => {
        params[name] = decodeURIComponent(match[i + 1] ?? '');
      });
    } catch {
      return undefined; // a malformed escape: the validator answers it
    }
    return { route, params };
  }
  return undefined;
}
