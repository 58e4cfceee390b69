import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Every setting, read from the environment once at start-up. Each entry says its variable,
 * its default and what it does; a bad value stops the server before it listens.
 */
/** How much the server logs. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Config {
  mode: 'sandbox' | 'production';
  host: string;
  port: number;
  /** Base address used in links and redirect actions; derived from the request when empty. */
  publicBaseUrl: string;
  databasePath: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** postgres://… selects PostgreSQL (several instances may share it); unset keeps the SQLite file. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  databaseStatementTimeoutMs: number;
  validateResponses: boolean;
  bodyLimitBytes: number;
  logLevel: LogLevel;
  demoCompanyApiKey: string | undefined;
  demoMerchantApiKey: string | undefined;
  /** 64 hex characters: the AES-256 key that encrypts stored card numbers (see kernel/crypto/shared-secrets.ts when unset). */
  cardEncryptionKey: string | undefined;
  /** 64 hex characters: the root of the API-key hash key and the redirect signing key (see kernel/crypto/shared-secrets.ts when unset). */
  serverSecret: string | undefined;
  /** Hosts each merchant account may forward card details and send webhooks to; key `*` applies to all. */
  forwardAllowList: Record<string, string[]>;
  /** Let /forward and webhooks reach private, loopback and link-local addresses (for tests; never on a shared deployment). */
  forwardAllowPrivateNetworks: boolean;
  /** Webhooks may go to a receiver on loopback (localhost, 127.0.0.0/8, ::1) without an allow-list entry. */
  webhookAllowLoopback: boolean;
  forwardTimeoutMs: number;
  forwardMaxResponseBytes: number;
  /** Run the webhook dispatcher in this process. */
  webhookDispatch: boolean;
  webhookPollMs: number;
  webhookTimeoutMs: number;
  /** How long a delivery's lease outlives its attempts' timeouts: time to record the outcome before another instance may take it. */
  webhookLeaseMarginMs: number;
  webhookImmediateRetries: number;
  /** Waits after the immediate retries, in seconds; the last one repeats. */
  webhookRetryScheduleSeconds: number[];
  webhookGiveUpAfterSeconds: number;
  /** Where uploaded files are kept; beside the database by default. */
  uploadDir: string;
  androidMaxApkBytes: number;
  /** Slow clients: the headers must arrive within this, the whole request within the next. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Requests a minute per credential for each rate-limited operation. */
  rateLimitPerMinute: number;
  /** On SIGTERM/SIGINT: how long in-flight requests may take before the process exits anyway. */
  shutdownTimeoutMs: number;
}

interface Setting<K extends keyof Config> {
  env: string;
  doc: string;
  default: (partial: Partial<Config>) => Config[K];
  parse: (raw: string) => Config[K];
}

const oneOf =
  <T extends string>(...values: T[]) =>
  (raw: string): T => {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(', ')}`);
    return raw as T;
  };
const integer = (min: number, max: number) => (raw: string) => {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`must be an integer from ${min} to ${max}`);
  return n;
};
const hostList = (raw: string): Record<string, string[]> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('must be JSON such as {"DemoMerchantECOM":["vault.example.com"],"*":["*.example.org"]}');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('must be a JSON object of merchant account to host list');
  for (const hosts of Object.values(parsed)) {
    if (!Array.isArray(hosts) || hosts.some((h) => typeof h !== 'string')) throw new Error('every value must be a list of host names');
  }
  return parsed as Record<string, string[]>;
};
const hexKey = (raw: string) => {
  if (!/^[0-9a-fA-F]{64}$/.test(raw)) throw new Error('must be 64 hexadecimal characters (32 bytes)');
  return raw;
};
const secondsList = (raw: string): number[] => {
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.length === 0 || values.some((v) => !Number.isSafeInteger(v) || v < 0))
    throw new Error('must be a comma-separated list of whole seconds, e.g. 120,300,600');
  return values;
};
const boolean = (raw: string) => oneOf('true', 'false')(raw) === 'true';
const text = (raw: string) => raw;
const apiKey = (raw: string) => {
  if (raw.length < 20) throw new Error('must be at least 20 characters');
  if (!/^[\x21-\x7E]{20,512}$/.test(raw)) throw new Error('must be 20 to 512 printable ASCII characters');
  return raw;
};

const postgresUrl = (raw: string): string => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('must be a URL such as postgres://user:password@127.0.0.1:5432/payments');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('must start with postgres:// or postgresql://');
  return raw;
};

export const SETTINGS: { [K in keyof Config]: Setting<K> } = {
  mode: { env: 'APP_MODE', doc: 'sandbox (test controls on) or production', default: () => 'sandbox', parse: oneOf('sandbox', 'production') },
  host: { env: 'HOST', doc: 'interface to listen on', default: () => '127.0.0.1', parse: text },
  port: { env: 'PORT', doc: 'TCP port; 0 picks a free one', default: () => 8080, parse: integer(0, 65535) },
  publicBaseUrl: { env: 'PUBLIC_BASE_URL', doc: 'external base address, e.g. https://pay.example.com', default: () => '', parse: text },
  databasePath: { env: 'DATABASE_PATH', doc: 'SQLite file (":memory:" keeps nothing)', default: () => './data/payments.sqlite', parse: text },
  sqliteSynchronous: { env: 'SQLITE_SYNCHRONOUS', doc: 'FULL (fsync every commit) or NORMAL', default: () => 'FULL', parse: oneOf('FULL', 'NORMAL') },
  databaseUrl: {
    env: 'DATABASE_URL',
    doc: 'postgres://user:password@host:port/database selects PostgreSQL instead of the SQLite file',
    default: () => undefined,
    parse: postgresUrl,
  },
  databasePoolSize: { env: 'DATABASE_POOL_SIZE', doc: 'PostgreSQL connections per instance', default: () => 10, parse: integer(1, 500) },
  databaseStatementTimeoutMs: {
    env: 'DATABASE_STATEMENT_TIMEOUT_MS',
    doc: 'PostgreSQL cancels a statement that runs longer',
    default: () => 10_000,
    parse: integer(100, 600_000),
  },
  validateResponses: {
    env: 'VALIDATE_RESPONSES',
    doc: 'validate every response against the spec',
    default: (c) => c.mode !== 'production',
    parse: boolean,
  },
  bodyLimitBytes: { env: 'BODY_LIMIT_BYTES', doc: 'largest accepted JSON body', default: () => 1_048_576, parse: integer(1024, 250_000_000) },
  logLevel: { env: 'LOG_LEVEL', doc: 'debug, info, warn, error or silent', default: () => 'info', parse: oneOf('debug', 'info', 'warn', 'error', 'silent') },
  demoCompanyApiKey: { env: 'DEMO_COMPANY_API_KEY', doc: 'API key of the seeded company credential', default: () => undefined, parse: apiKey },
  demoMerchantApiKey: { env: 'DEMO_MERCHANT_API_KEY', doc: 'API key of the seeded merchant credential', default: () => undefined, parse: apiKey },
  cardEncryptionKey: {
    env: 'CARD_ENCRYPTION_KEY',
    doc: 'AES-256 key for stored card numbers; when unset in sandbox mode, a key file beside the SQLite database, or (DATABASE_URL) one generated once and kept sealed in the shared database',
    default: () => undefined,
    parse: hexKey,
  },
  serverSecret: {
    env: 'SERVER_SECRET',
    doc: 'root key of the API-key hashes and the redirect signing key; when unset in sandbox mode, a key file beside the SQLite database, or (DATABASE_URL) one generated once and kept sealed in the shared database',
    default: () => undefined,
    parse: hexKey,
  },
  forwardAllowList: {
    env: 'FORWARD_ALLOWLIST',
    doc: 'JSON: merchant account (or *) to the hosts /forward and webhooks may reach (they must resolve to public addresses)',
    default: () => ({}),
    parse: hostList,
  },
  forwardAllowPrivateNetworks: {
    env: 'FORWARD_ALLOW_PRIVATE_NETWORKS',
    doc: 'let /forward and webhooks to allow-listed hosts reach private, loopback and link-local addresses (for tests; never on a shared deployment)',
    default: () => false,
    parse: boolean,
  },
  webhookAllowLoopback: {
    env: 'WEBHOOK_ALLOW_LOOPBACK',
    doc: 'webhooks may go to a receiver on this machine (localhost, 127.0.0.0/8, ::1) without FORWARD_ALLOWLIST: true by default in sandbox mode, false (and only false) in production; false locks a shared sandbox down',
    default: (c) => c.mode !== 'production',
    parse: boolean,
  },
  forwardTimeoutMs: { env: 'FORWARD_TIMEOUT_MS', doc: 'timeout of a forward request', default: () => 10_000, parse: integer(100, 120_000) },
  forwardMaxResponseBytes: {
    env: 'FORWARD_MAX_RESPONSE_BYTES',
    doc: 'largest forwarded response kept',
    default: () => 1_048_576,
    parse: integer(1024, 50_000_000),
  },
  webhookDispatch: { env: 'WEBHOOK_DISPATCH', doc: 'deliver webhook events from this process', default: () => true, parse: boolean },
  webhookPollMs: { env: 'WEBHOOK_POLL_MS', doc: 'how often the dispatcher looks for due events', default: () => 250, parse: integer(10, 60_000) },
  webhookTimeoutMs: { env: 'WEBHOOK_TIMEOUT_MS', doc: 'how long a receiver may take', default: () => 10_000, parse: integer(100, 120_000) },
  webhookLeaseMarginMs: {
    env: 'WEBHOOK_LEASE_MARGIN_MS',
    doc: 'how long a delivery stays leased beyond its timeout, before another instance may send it',
    default: () => 30_000,
    parse: integer(1000, 600_000),
  },
  webhookImmediateRetries: { env: 'WEBHOOK_IMMEDIATE_RETRIES', doc: 'retries right after a failure', default: () => 3, parse: integer(0, 10) },
  webhookRetryScheduleSeconds: {
    env: 'WEBHOOK_RETRY_SCHEDULE',
    doc: 'seconds between later retries; the last repeats',
    default: () => [120, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800],
    parse: secondsList,
  },
  uploadDir: {
    env: 'UPLOAD_DIR',
    doc: 'folder for uploaded APKs',
    default: (c) =>
      c.databasePath === ':memory:' || c.databasePath === undefined ? `${tmpdir()}/payments-uploads-${process.pid}` : join(dirname(c.databasePath), 'uploads'),
    parse: text,
  },
  androidMaxApkBytes: { env: 'ANDROID_MAX_APK_BYTES', doc: 'largest APK accepted', default: () => 200 * 1024 * 1024, parse: integer(1024, 2_000_000_000) },
  headersTimeoutMs: {
    env: 'HEADERS_TIMEOUT_MS',
    doc: 'how long a client may take to send the request headers',
    default: () => 10_000,
    parse: integer(1_000, 600_000),
  },
  requestTimeoutMs: {
    env: 'REQUEST_TIMEOUT_MS',
    doc: 'how long a client may take to send a whole request (fits a 200 MB upload at about 1 MB/s)',
    default: () => 300_000,
    parse: integer(1_000, 3_600_000),
  },
  rateLimitPerMinute: {
    env: 'RATE_LIMIT_PER_MINUTE',
    doc: 'requests a minute per credential on rate-limited operations',
    default: () => 120,
    parse: integer(1, 1_000_000_000),
  },
  shutdownTimeoutMs: {
    env: 'SHUTDOWN_TIMEOUT_MS',
    doc: 'on SIGTERM/SIGINT, how long in-flight requests may take before the process exits anyway',
    default: () => 10_000,
    parse: integer(0, 600_000),
  },
  webhookGiveUpAfterSeconds: {
    env: 'WEBHOOK_GIVE_UP_AFTER_SECONDS',
    doc: 'stop retrying an event this long after it happened',
    default: () => 30 * 24 * 3600,
    parse: integer(1, 365 * 24 * 3600),
  },
};

/** Reads the configuration; `overrides` win over the environment (tests use them). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const config: Partial<Config> = {};
  const problems: string[] = [];
  // mode first: other defaults depend on it.
  const keys = Object.keys(SETTINGS) as Array<keyof Config>;
  for (const key of keys) {
    const setting = SETTINGS[key] as Setting<typeof key>;
    const raw = env[setting.env];
    try {
      const value = key in overrides ? overrides[key] : raw !== undefined && raw !== '' ? setting.parse(raw) : setting.default(config);
      (config as Record<string, unknown>)[key] = value;
    } catch (error) {
      problems.push(`${setting.env} ${(error as Error).message} (${setting.doc})`);
    }
  }
  // In production the operator keeps the secrets (and gives every instance sharing DATABASE_URL the same ones): none is generated.
  const same = config.databaseUrl ? ', the same on every instance sharing DATABASE_URL' : '';
  if (config.mode === 'production' && !config.cardEncryptionKey)
    problems.push(`CARD_ENCRYPTION_KEY is required in production mode (64 hexadecimal characters${same})`);
  if (config.mode === 'production' && !config.serverSecret) problems.push(`SERVER_SECRET is required in production mode (64 hexadecimal characters${same})`);
  if (config.mode === 'production' && config.webhookAllowLoopback)
    problems.push('WEBHOOK_ALLOW_LOOPBACK is for sandbox mode only: in production every webhook host must be on FORWARD_ALLOWLIST');
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return config as Config;
}
