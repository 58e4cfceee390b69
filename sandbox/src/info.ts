/** What a started sandbox tells: the `--json` ready line of `payments-sandbox`, and part of what startSandbox() resolves to. */
export interface SandboxInfo {
  /** Base address of Checkout v71, e.g. http://127.0.0.1:40123/checkout/v71. */
  checkoutUrl: string;
  /** Base address of Management v3. */
  managementUrl: string;
  /** Base address of the client-side API (Adyen Web's checkoutshopper). */
  clientsideUrl: string;
  /** The sandbox console in a browser (sign in with either key). */
  consoleUrl: string;
  /** Where the sandbox listens, without a path. */
  baseUrl: string;
  port: number;
  /** The seeded company. */
  companyId: string;
  /** API key of the company credential (every role, every merchant account). */
  companyKey: string;
  /** API key of the merchant credential: `merchantAccount` only, checkout roles only. */
  merchantKey: string;
  /** The merchant account of the merchant credential (manual capture). */
  merchantAccount: string;
  /** Every seeded merchant account. */
  merchantAccounts: string[];
  /** Where the database file (without --database-url) and uploads are kept. */
  dataDir: string;
  /** Whether the data folder is a temporary one, removed when the sandbox stops. */
  temporaryDataDir: boolean;
  /** The sandbox's process. */
  pid: number;
  /** The package version. */
  version: string;
}
