import type { TestServer } from './start-server.js';

/** What signing in to the console gives a page: the cookie the browser keeps and the CSRF token of the answer. */
export interface ConsoleSignIn {
  cookie: string;
  csrfToken: string;
  body: Record<string, unknown>;
  setCookie: string;
}

export interface ConsoleResponse {
  status: number;
  headers: Headers;
  // Bodies differ per operation; tests assert their shape.
  body: any;
}

/** Signs in with an API key as the console page does. */
export async function signIn(server: TestServer, apiKey: string): Promise<ConsoleSignIn> {
  const response = await fetch(`${server.consoleUrl}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(body)}`);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0]!, csrfToken: body.csrfToken as string, body, setCookie };
}

/**
 * A request as the console page sends it: the session cookie, and, when given, the CSRF token and
 * an Origin. `url` is absolute (any area).
 */
export async function asPage(
  url: string,
  init: { method?: string; cookie?: string; csrfToken?: string; origin?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ConsoleResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.csrfToken) headers['X-Console-Csrf'] = init.csrfToken;
  if (init.origin) headers.Origin = init.origin;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, { method: init.method ?? 'GET', headers, ...(init.body !== undefined && { body: JSON.stringify(init.body) }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}
