/**
 * The Adyen Node library (`@adyen/api-library`) against a sandbox: the library calls Adyen's test
 * hosts over HTTPS and has no setting for another address, but it takes an HTTP client of one's
 * own (`new Client(config, httpClient)`). This one sends the library's requests to the sandbox's
 * addresses over plain HTTP and fails as the library's own client does on an error answer.
 */
import { Buffer } from 'node:buffer';

/** The library's `ClientInterface`, as far as it is used here (the package does not depend on the library). */
export interface AdyenHttpClient {
  request(
    endpoint: string,
    json: string,
    config: { apiKey?: string; username?: string; password?: string; connectionTimeoutMillis?: number },
    isApiKeyRequired: boolean,
    requestOptions?: { method?: string; headers?: Record<string, string | number | string[] | undefined>; params?: unknown; idempotencyKey?: string },
  ): Promise<string>;
}

/** An error with the fields of the library's HttpClientException (statusCode, errorCode, responseBody, apiError). */
export class SandboxHttpError extends Error {
  override readonly name = 'HttpClientException';
  constructor(
    message: string,
    readonly statusCode: number,
    readonly responseBody: string,
    readonly errorCode?: string,
    readonly apiError?: unknown,
  ) {
    super(message);
  }
}

const HOSTS: Array<[RegExp, 'checkoutUrl' | 'managementUrl']> = [
  [/^https:\/\/checkout-test\.adyen\.com\/v\d+/, 'checkoutUrl'],
  [/^https:\/\/management-test\.adyen\.com\/v3/, 'managementUrl'],
];

/** An HTTP client for `new Client({ apiKey, environment: 'TEST' }, adyenHttpClient(sandbox))`. */
export function adyenHttpClient(sandbox: { checkoutUrl: string; managementUrl: string }): AdyenHttpClient {
  return {
    async request(endpoint, json, config, isApiKeyRequired, requestOptions = {}) {
      const rule = HOSTS.find(([pattern]) => pattern.test(endpoint));
      if (!rule) throw new Error(`${endpoint} is not served by the payments sandbox (Checkout and Management are)`);
      const url = new URL(endpoint.replace(rule[0], sandbox[rule[1]]));
      if (requestOptions.params) {
        for (const [name, value] of new URLSearchParams(requestOptions.params as ConstructorParameters<typeof URLSearchParams>[0]))
          url.searchParams.append(name, value);
      }
      if (isApiKeyRequired && !config.apiKey) throw new SandboxHttpError('Invalid X-API-Key was used', 401, '');
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      for (const [name, value] of Object.entries(requestOptions.headers ?? {}))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      if (config.apiKey) headers['X-API-Key'] = config.apiKey;
      else headers.Authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`, 'utf8').toString('base64')}`;
      if (requestOptions.idempotencyKey) headers['Idempotency-Key'] = requestOptions.idempotencyKey;
      const method = (requestOptions.method ?? 'POST').toUpperCase();
      const response = await fetch(url, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' || !json ? {} : { body: json }),
        ...(config.connectionTimeoutMillis ? { signal: AbortSignal.timeout(config.connectionTimeoutMillis) } : {}),
      });
      const body = await response.text();
      if (response.ok) return body;
      let error: { status?: number; errorCode?: string; message?: string } = {};
      try {
        error = JSON.parse(body) as typeof error;
      } catch {
        // not JSON: the status alone
      }
      throw new SandboxHttpError(
        `HTTP Exception: ${error.status ?? response.status}. ${response.statusText}${error.message ? `: ${error.message}` : ''}`,
        error.status ?? response.status,
        body,
        error.errorCode,
        error.status === undefined ? undefined : error,
      );
    },
  };
}
