/** Types of examples/dropin/server.mjs, for the browser test that starts it. */
export function startDropinExample(options?: { baseUrl?: string; apiKey?: string; port?: number }): Promise<{ url: string; close(): Promise<void> }>;
