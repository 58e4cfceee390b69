/** Types of scripts/prism.mjs, for the tests that start the mock. */
export function prismArgs(options: {
  root: string;
  area: 'checkout' | 'management' | 'clientside';
  port: number;
  host?: string;
  level?: 'fatal' | 'warn' | 'info';
}): string[];
