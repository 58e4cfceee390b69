/** A small structured logger: one JSON line per event. Never give it request bodies or keys. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

import type { LogLevel } from '../config.js';

export type { LogLevel };
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, silent: 3 };

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Logger {
  const log = (at: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields }));
  };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}
