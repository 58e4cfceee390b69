import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { LogLevel } from '../config.js';
import { SECRET_FIELDS } from './redaction.js';

export type { LogLevel };

/**
 * The structured logger (pino): one JSON line per event. Never give it request bodies or keys;
 * should a field carry one anyway, the redaction below replaces it.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  isLevelEnabled(level: Exclude<LogLevel, 'silent'>): boolean;
  /** The pino logger underneath (the request log of kernel/http/request-log.ts writes through it). */
  readonly pino: Pino;
}

/**
 * Field names whose values never reach a log line, at any of the first three levels of nesting:
 * the secrets of kernel/redaction.ts (the stored request log redacts the same), as written and
 * with the spellings headers and bodies use.
 */
export const REDACTED_FIELDS = [...new Set([...SECRET_FIELDS, 'Authorization', 'X-API-Key', 'IBAN'])];

const REDACT_PATHS = REDACTED_FIELDS.flatMap((field) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
  const join = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key.startsWith('[') ? key : field, join('*'), join('*.*')];
});

export interface LoggerOptions {
  /** Where the lines go (default: stdout). */
  destination?: DestinationStream;
}

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const base = pino(
    {
      level,
      base: undefined,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return wrap(base);
}

function wrap(base: Pino): Logger {
  const at =
    (method: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (fields) base[method](fields, message);
      else base[method](message);
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    isLevelEnabled: (level) => base.isLevelEnabled(level),
    pino: base,
  };
}

/**
 * Human-readable lines (pino-pretty, a development dependency) when the output is a terminal
 * outside production; JSON lines otherwise, or when pino-pretty is not installed.
 */
export async function prettyDestination(mode: 'sandbox' | 'production', isTty = process.stdout.isTTY === true): Promise<DestinationStream | undefined> {
  if (mode === 'production' || !isTty) return undefined;
  try {
    const { default: pretty } = (await import('pino-pretty')) as { default: (options: Record<string, unknown>) => DestinationStream };
    return pretty({ colorize: true, sync: true, messageKey: 'message', translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}
