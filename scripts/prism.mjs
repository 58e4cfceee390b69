/**
 * How every part of the project starts Prism 5.14.2 on one area's bundled spec: `npm run mock`,
 * the contract tests and the benchmark run the same command, so what they measure is what a
 * frontend team runs.
 *
 * Prism's log level is `fatal` unless asked otherwise. Prism's CLI pipes its own JSON log through
 * `jsonrepair` (3.15, pinned by prism-cli 5.14.2), which turns some valid lines into arrays: a
 * request body holding a string such as "a}b[c:" inside an array made the CLI throw on the log
 * line and exit, taking the mock down. At `fatal` no request is logged (start-up failures still
 * are). At `warn` (MOCK_VERBOSE=1) Prism logs its validation messages, not the request; those may
 * quote a property name the client sent ("found 'x'"), so verbose mode is for debugging.
 */
import { join } from 'node:path';

/** @param {{ root: string, area: 'checkout' | 'management' | 'clientside', port: number, host?: string, level?: 'fatal' | 'warn' | 'info' }} options */
export function prismArgs({ root, area, port, host = '127.0.0.1', level = 'fatal' }) {
  return [
    join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
    'mock',
    '-h',
    host,
    '-p',
    String(port),
    '-v',
    level,
    // The JSON bundle (the same document as the YAML one): Prism reads it in 0.4 s less CPU.
    join(root, 'generated', `${area}.json`),
  ];
}
