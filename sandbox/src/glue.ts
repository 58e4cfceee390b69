import type { SandboxInfo } from './info.js';

/** Where Jest's globalSetup leaves the sandbox for its globalTeardown (both run in Jest's parent process). */
export const SANDBOX_HANDLE: unique symbol = Symbol.for('@payments-platform/sandbox');

/** The environment variables the test-runner setups set, by name. */
export function environmentOf(sandbox: SandboxInfo): Record<string, string> {
  return {
    SANDBOX_BASE_URL: sandbox.baseUrl,
    SANDBOX_CHECKOUT_URL: sandbox.checkoutUrl,
    SANDBOX_MANAGEMENT_URL: sandbox.managementUrl,
    SANDBOX_CLIENTSIDE_URL: sandbox.clientsideUrl,
    SANDBOX_COMPANY_ID: sandbox.companyId,
    SANDBOX_COMPANY_KEY: sandbox.companyKey,
    SANDBOX_MERCHANT_KEY: sandbox.merchantKey,
    SANDBOX_MERCHANT_ACCOUNT: sandbox.merchantAccount,
    SANDBOX_MERCHANT_ACCOUNTS: sandbox.merchantAccounts.join(','),
  };
}

export function exportToEnvironment(sandbox: SandboxInfo): void {
  Object.assign(process.env, environmentOf(sandbox));
}
