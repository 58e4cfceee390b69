import type { RequestHandler } from 'express';
import type { Policy } from './kernel/auth/policy.js';
import { CHECKOUT_ROLES, ROLES } from './kernel/auth/roles.js';
import * as modifications from './checkout/modifications/modifications.js';
import * as orders from './checkout/orders/orders.js';
import * as payments from './checkout/payments/payments.js';
import * as sandbox from './checkout/sandbox/sandbox.js';
import * as webhookFaults from './checkout/sandbox/webhook-faults.js';
import * as sessions from './checkout/sessions/sessions.js';
import * as clientSessions from './checkout/sessions/client-sessions.js';
import * as analytics from './checkout/analytics/analytics.js';
import * as paymentStatus from './checkout/payments/payment-status.js';
import * as paymentMethods from './checkout/payment-methods/payment-methods.js';
import * as recurring from './checkout/stored-methods/recurring.js';
import * as donations from './checkout/donations/donations.js';
import * as paymentLinks from './checkout/links/payment-links.js';
import * as utility from './checkout/utility/utility.js';
import * as accounts from './management/accounts/accounts.js';
import * as me from './management/credentials/me.js';
import * as webhooks from './management/webhooks/webhooks.js';
import * as credentials from './management/credentials/credentials.js';
import * as payouts from './management/payouts/payouts.js';
import * as paymentMethodSettings from './management/payment-method-settings/payment-method-settings.js';
import * as splits from './management/splits/splits.js';
import * as android from './management/android/android.js';
import * as terminal from './management/terminal-settings/terminal-settings.js';
import * as stores from './management/stores/stores.js';
import * as terminals from './management/terminals/terminals.js';
import * as users from './management/users/users.js';
import * as consoleSession from './console/session.js';
import * as consoleRequests from './console/requests.js';
import * as consolePayments from './console/payments.js';
import * as consoleStream from './console/stream.js';
import * as consoleDeliveries from './console/deliveries.js';
import * as consoleClock from './console/clock.js';
import type { HandlerDeps, Operation, OperationId } from './kernel/http/handler.js';

export type { OperationId };

export interface OperationEntry<Id extends OperationId> extends Policy {
  /** The implementation: its operationId must be the registry key (the compiler checks it). */
  handler: Operation<Id>;
  /** Subject to the per-credential rate limit (Adyen rate-limits these in live). */
  rateLimited?: true;
}

/** Adyen lets the terminal-actions roles list Android files, but not read one app. */
const ANDROID_FILES_READ = [ROLES.androidFilesRead, ROLES.androidFilesReadWrite];
const ANDROID_READ = [ROLES.androidFilesRead, ROLES.androidFilesReadWrite, ROLES.terminalActionsRead, ROLES.terminalActionsReadWrite];
const TERMINAL_READ = [ROLES.terminalSettingsRead, ROLES.terminalSettingsReadWrite];
const TERMINAL_WRITE = [ROLES.terminalSettingsReadWrite];
const STORES_READ = [ROLES.storesRead, ROLES.storesReadWrite];
const STORES_WRITE = [ROLES.storesReadWrite];
const TERMINALS_READ = [ROLES.terminalActionsRead, ROLES.terminalActionsReadWrite];

/**
 * Every operation of the four specs, by operationId: the join key of spec, handler, test and
 * examples. `satisfies` makes an operation without a handler a type error.
 */
export const OPERATIONS = {
  payments: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: payments.payments },
  paymentsDetails: { requires: CHECKOUT_ROLES, scope: 'resource', handler: payments.paymentsDetails },
  captureAuthorisedPayment: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: modifications.captureAuthorisedPayment },
  refundCapturedPayment: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: modifications.refundCapturedPayment },
  cancelAuthorisedPaymentByPspReference: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: modifications.cancelAuthorisedPaymentByPspReference },
  cancelAuthorisedPayment: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: modifications.cancelAuthorisedPayment },
  refundOrCancelPayment: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: modifications.refundOrCancelPayment },
  updateAuthorisedAmount: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: modifications.updateAuthorisedAmount },
  orders: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: orders.orders },
  cancelOrder: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: orders.cancelOrder },
  getBalanceOfGiftCard: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: orders.getBalanceOfGiftCard },
  sessions: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: sessions.sessions },
  sessionPayments: { requires: CHECKOUT_ROLES, scope: 'resource', clientKey: true, handler: sessions.sessionPayments },
  sessionPaymentDetails: { requires: CHECKOUT_ROLES, scope: 'resource', clientKey: true, handler: sessions.sessionPaymentDetails },
  getResultOfPaymentSession: { requires: CHECKOUT_ROLES, scope: 'resource', handler: sessions.getResultOfPaymentSession },
  paymentMethods: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: paymentMethods.paymentMethods },
  cardDetails: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: paymentMethods.cardDetails },
  storedPaymentMethods: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: recurring.storedPaymentMethods },
  getTokensForStoredPaymentDetails: { requires: CHECKOUT_ROLES, scope: 'merchantQuery', handler: recurring.getTokensForStoredPaymentDetails },
  deleteTokenForStoredPaymentDetails: { requires: CHECKOUT_ROLES, scope: 'merchantQuery', handler: recurring.deleteTokenForStoredPaymentDetails },
  forward: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: recurring.forward },
  donationCampaigns: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: donations.donationCampaigns },
  paymentLinks: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: paymentLinks.paymentLinks },
  getPaymentLink: { requires: CHECKOUT_ROLES, scope: 'resource', handler: paymentLinks.getPaymentLink },
  updatePaymentLink: { requires: CHECKOUT_ROLES, scope: 'resource', handler: paymentLinks.updatePaymentLink },
  updatesOrderForPaypalExpressCheckout: { requires: CHECKOUT_ROLES, scope: 'resource', handler: utility.updatesOrderForPaypalExpressCheckout },
  originKeys: { requires: CHECKOUT_ROLES, scope: 'self', handler: utility.originKeys },
  getSandboxClock: { requires: 'authenticated', scope: 'self', handler: sandbox.getSandboxClock },
  advanceSandboxClock: { requires: 'authenticated', scope: 'ownCompany', handler: sandbox.advanceSandboxClock },
  triggerSandboxEvent: { requires: 'authenticated', scope: 'ownCompany', handler: sandbox.triggerSandboxEvent },
  getSandboxWebhookFaults: { requires: 'authenticated', scope: 'ownCompany', handler: webhookFaults.getSandboxWebhookFaults },
  setSandboxWebhookFaults: { requires: 'authenticated', scope: 'ownCompany', handler: webhookFaults.setSandboxWebhookFaults },
  donations: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: donations.donations },
  getApplePaySession: { requires: CHECKOUT_ROLES, scope: 'resource', handler: utility.getApplePaySession },
  validateShopperId: { requires: CHECKOUT_ROLES, scope: 'merchantBody', handler: utility.validateShopperId },
  updateWalletOrder: { requires: CHECKOUT_ROLES, scope: 'resource', handler: utility.updateWalletOrder },

  getApiCredentialDetails: { requires: 'anyManagementRole', scope: 'self', handler: me.getApiCredentialDetails },
  listMerchantAccounts: { requires: [ROLES.accountsRead], scope: 'resource', handler: accounts.listMerchantAccounts },
  listCompanyApiCredentials: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.listCompanyApiCredentials },
  getCompanyApiCredential: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.getCompanyApiCredential },
  listCompanyAllowedOrigins: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.listCompanyAllowedOrigins },
  generateNewCompanyApiKey: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.generateNewCompanyApiKey },
  listMerchantApiCredentials: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.listMerchantApiCredentials },
  getMerchantApiCredential: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.getMerchantApiCredential },
  generateNewMerchantApiKey: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.generateNewMerchantApiKey },
  getAllowedOrigins: { requires: 'anyManagementRole', scope: 'self', handler: credentials.getAllowedOrigins },
  addAllowedOrigin: { requires: 'anyManagementRole', scope: 'self', handler: credentials.addAllowedOrigin },
  getAllowedOriginDetails: { requires: 'anyManagementRole', scope: 'self', handler: credentials.getAllowedOriginDetails },
  removeAllowedOrigin: { requires: 'anyManagementRole', scope: 'self', handler: credentials.removeAllowedOrigin },
  listPayoutSettings: { requires: [ROLES.payoutSettingsRead], scope: 'merchantPath', handler: payouts.listPayoutSettings },
  addPayoutSetting: { requires: [ROLES.payoutSettingsReadWrite], scope: 'merchantPath', handler: payouts.addPayoutSetting },
  getPayoutSetting: { requires: [ROLES.payoutSettingsRead], scope: 'merchantPath', handler: payouts.getPayoutSetting },
  updatePayoutSetting: { requires: [ROLES.payoutSettingsReadWrite], scope: 'merchantPath', handler: payouts.updatePayoutSetting },
  deletePayoutSetting: { requires: [ROLES.payoutSettingsReadWrite], scope: 'merchantPath', handler: payouts.deletePayoutSetting },
  getAllPaymentMethods: { requires: [ROLES.paymentMethodsRead], scope: 'merchantPath', handler: paymentMethodSettings.getAllPaymentMethods },
  requestPaymentMethod: { requires: [ROLES.paymentMethodsReadWrite], scope: 'merchantPath', handler: paymentMethodSettings.requestPaymentMethod },
  getPaymentMethodDetails: { requires: [ROLES.paymentMethodsRead], scope: 'merchantPath', handler: paymentMethodSettings.getPaymentMethodDetails },
  updatePaymentMethod: { requires: [ROLES.paymentMethodsReadWrite], scope: 'merchantPath', handler: paymentMethodSettings.updatePaymentMethod },
  addApplePayDomain: { requires: [ROLES.paymentMethodsReadWrite], scope: 'merchantPath', handler: paymentMethodSettings.addApplePayDomain },
  getApplePayDomains: { requires: [ROLES.paymentMethodsRead], scope: 'merchantPath', handler: paymentMethodSettings.getApplePayDomains },
  listSplitConfigurations: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.listSplitConfigurations },
  createSplitConfiguration: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.createSplitConfiguration },
  getSplitConfiguration: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.getSplitConfiguration },
  updateSplitConfigurationDescription: {
    requires: [ROLES.splitConfigurationReadWrite],
    scope: 'merchantPath',
    handler: splits.updateSplitConfigurationDescription,
  },
  deleteSplitConfiguration: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.deleteSplitConfiguration },
  createRule: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.createRule },
  updateSplitConditions: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.updateSplitConditions },
  deleteSplitConfigurationRule: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.deleteSplitConfigurationRule },
  updateSplitLogic: { requires: [ROLES.splitConfigurationReadWrite], scope: 'merchantPath', handler: splits.updateSplitLogic },
  listAndroidApps: { requires: ANDROID_READ, scope: 'company', handler: android.listAndroidApps, rateLimited: true },
  uploadAndroidApp: { requires: [ROLES.androidFilesReadWrite], scope: 'company', handler: android.uploadAndroidApp, rateLimited: true },
  getAndroidApp: { requires: ANDROID_FILES_READ, scope: 'company', handler: android.getAndroidApp },
  reprocessAndroidApp: { requires: [ROLES.androidFilesReadWrite], scope: 'company', handler: android.reprocessAndroidApp, rateLimited: true },
  listAndroidCertificates: { requires: ANDROID_READ, scope: 'company', handler: android.listAndroidCertificates, rateLimited: true },
  uploadAndroidCertificate: { requires: [ROLES.androidFilesReadWrite], scope: 'company', handler: android.uploadAndroidCertificate, rateLimited: true },
  getCompanyTerminalSettings: { requires: TERMINAL_READ, scope: 'company', handler: terminal.getCompanyTerminalSettings },
  updateCompanyTerminalSettings: { requires: TERMINAL_WRITE, scope: 'company', handler: terminal.updateCompanyTerminalSettings, rateLimited: true },
  getMerchantTerminalSettings: { requires: TERMINAL_READ, scope: 'merchantPath', handler: terminal.getMerchantTerminalSettings },
  updateMerchantTerminalSettings: { requires: TERMINAL_WRITE, scope: 'merchantPath', handler: terminal.updateMerchantTerminalSettings, rateLimited: true },
  getStoreTerminalSettingsByReference: { requires: TERMINAL_READ, scope: 'merchantPath', handler: terminal.getStoreTerminalSettingsByReference },
  updateStoreTerminalSettingsByReference: {
    requires: TERMINAL_WRITE,
    scope: 'merchantPath',
    handler: terminal.updateStoreTerminalSettingsByReference,
    rateLimited: true,
  },
  getStoreTerminalSettings: { requires: TERMINAL_READ, scope: 'storePath', handler: terminal.getStoreTerminalSettings },
  updateStoreTerminalSettings: { requires: TERMINAL_WRITE, scope: 'storePath', handler: terminal.updateStoreTerminalSettings, rateLimited: true },
  getTerminalTerminalSettings: { requires: TERMINAL_READ, scope: 'terminalPath', handler: terminal.getTerminalTerminalSettings },
  updateTerminalTerminalSettings: { requires: TERMINAL_WRITE, scope: 'terminalPath', handler: terminal.updateTerminalTerminalSettings, rateLimited: true },
  listAllWebhooks: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.listAllWebhooks },
  setUpWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.setUpWebhook },
  getWebhook: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.getWebhook },
  updateWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.updateWebhook },
  removeWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.removeWebhook },
  generateHmacKey: { requires: [ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.generateHmacKey },
  testWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.testWebhook },
  listWebhookEvents: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.listWebhookEvents },
  resendWebhookEvent: { requires: [ROLES.webhooksReadWrite], scope: 'merchantPath', handler: webhooks.resendWebhookEvent },
  listAllCompanyWebhooks: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.listAllCompanyWebhooks },
  setUpCompanyWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.setUpCompanyWebhook },
  getCompanyWebhook: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.getCompanyWebhook },
  updateCompanyWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.updateCompanyWebhook },
  removeCompanyWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.removeCompanyWebhook },
  generateCompanyHmacKey: { requires: [ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.generateCompanyHmacKey },
  testCompanyWebhook: { requires: [ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.testCompanyWebhook },
  listCompanyWebhookEvents: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.listCompanyWebhookEvents },
  resendCompanyWebhookEvent: { requires: [ROLES.webhooksReadWrite], scope: 'company', handler: webhooks.resendCompanyWebhookEvent },
  // Client-side (spec/clientside): a client key from an allowed origin, never an API key.
  setupSession: { requires: CHECKOUT_ROLES, scope: 'sessionPath', clientKey: true, handler: clientSessions.setupSession },
  makeSessionPayment: { requires: CHECKOUT_ROLES, scope: 'sessionPath', clientKey: true, handler: clientSessions.makeSessionPayment },
  submitSessionPaymentDetails: { requires: CHECKOUT_ROLES, scope: 'sessionPath', clientKey: true, handler: clientSessions.submitSessionPaymentDetails },
  checkSessionPaymentMethodBalance: {
    requires: CHECKOUT_ROLES,
    scope: 'sessionPath',
    clientKey: true,
    handler: clientSessions.checkSessionPaymentMethodBalance,
  },
  createSessionOrder: { requires: CHECKOUT_ROLES, scope: 'sessionPath', clientKey: true, handler: clientSessions.createSessionOrder },
  cancelSessionOrder: { requires: CHECKOUT_ROLES, scope: 'sessionPath', clientKey: true, handler: clientSessions.cancelSessionOrder },
  // The payment named by the action's paymentData is checked by the use case (`resource`).
  checkPaymentStatus: { requires: CHECKOUT_ROLES, scope: 'resource', clientKey: true, handler: paymentStatus.checkPaymentStatus },
  binLookup: { requires: CHECKOUT_ROLES, scope: 'self', clientKey: true, handler: paymentMethods.binLookup },
  submitThreeDS2Fingerprint: { requires: CHECKOUT_ROLES, scope: 'resource', clientKey: true, handler: payments.submitThreeDS2Fingerprint },
  setUpAnalytics: { requires: 'authenticated', scope: 'self', clientKey: true, handler: analytics.setUpAnalytics },
  sendAnalyticsEvents: { requires: 'authenticated', scope: 'self', clientKey: true, handler: analytics.sendAnalyticsEvents },
  // Stores, terminals and terminal logos. A store or terminal named in the body or query is
  // checked by the use case (`resource`): lists show only what the credential reaches.
  listStores: { requires: STORES_READ, scope: 'resource', handler: stores.listStores },
  createStore: { requires: STORES_WRITE, scope: 'resource', handler: stores.createStore },
  getStoreById: { requires: STORES_READ, scope: 'storePath', handler: stores.getStoreById },
  updateStoreById: { requires: STORES_WRITE, scope: 'storePath', handler: stores.updateStoreById },
  listStoresByMerchantId: { requires: STORES_READ, scope: 'merchantPath', handler: stores.listStoresByMerchantId },
  createStoreByMerchantId: { requires: STORES_WRITE, scope: 'merchantPath', handler: stores.createStoreByMerchantId },
  getStore: { requires: STORES_READ, scope: 'merchantPath', handler: stores.getStore },
  updateStore: { requires: STORES_WRITE, scope: 'merchantPath', handler: stores.updateStore },
  listTerminals: { requires: TERMINALS_READ, scope: 'resource', handler: terminals.listTerminals },
  boardSandboxTerminal: { requires: [ROLES.assignTerminal], scope: 'resource', handler: terminals.boardSandboxTerminal },
  getCompanyTerminalLogo: { requires: TERMINAL_READ, scope: 'company', handler: terminal.getCompanyTerminalLogo },
  updateCompanyTerminalLogo: { requires: TERMINAL_WRITE, scope: 'company', handler: terminal.updateCompanyTerminalLogo, rateLimited: true },
  getMerchantTerminalLogo: { requires: TERMINAL_READ, scope: 'merchantPath', handler: terminal.getMerchantTerminalLogo },
  updateMerchantTerminalLogo: { requires: TERMINAL_WRITE, scope: 'merchantPath', handler: terminal.updateMerchantTerminalLogo, rateLimited: true },
  getStoreTerminalLogoByReference: { requires: TERMINAL_READ, scope: 'merchantPath', handler: terminal.getStoreTerminalLogoByReference },
  updateStoreTerminalLogoByReference: {
    requires: TERMINAL_WRITE,
    scope: 'merchantPath',
    handler: terminal.updateStoreTerminalLogoByReference,
    rateLimited: true,
  },
  getStoreTerminalLogo: { requires: TERMINAL_READ, scope: 'storePath', handler: terminal.getStoreTerminalLogo },
  updateStoreTerminalLogo: { requires: TERMINAL_WRITE, scope: 'storePath', handler: terminal.updateStoreTerminalLogo, rateLimited: true },
  getTerminalTerminalLogo: { requires: TERMINAL_READ, scope: 'terminalPath', handler: terminal.getTerminalTerminalLogo },
  updateTerminalTerminalLogo: { requires: TERMINAL_WRITE, scope: 'terminalPath', handler: terminal.updateTerminalTerminalLogo, rateLimited: true },

  // API credentials: creating and changing them, client keys, allowed origins (company and merchant level).
  createCompanyApiCredential: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.createCompanyApiCredential },
  updateCompanyApiCredential: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.updateCompanyApiCredential },
  generateNewCompanyClientKey: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.generateNewCompanyClientKey },
  createCompanyAllowedOrigin: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.createCompanyAllowedOrigin },
  getCompanyAllowedOrigin: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.getCompanyAllowedOrigin },
  deleteCompanyAllowedOrigin: { requires: [ROLES.apiCredentialsReadWrite], scope: 'company', handler: credentials.deleteCompanyAllowedOrigin },
  createMerchantApiCredential: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.createMerchantApiCredential },
  updateMerchantApiCredential: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.updateMerchantApiCredential },
  generateNewMerchantClientKey: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.generateNewMerchantClientKey },
  listMerchantAllowedOrigins: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.listMerchantAllowedOrigins },
  createMerchantAllowedOrigin: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.createMerchantAllowedOrigin },
  getMerchantAllowedOrigin: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.getMerchantAllowedOrigin },
  deleteMerchantAllowedOrigin: { requires: [ROLES.apiCredentialsReadWrite], scope: 'merchantPath', handler: credentials.deleteMerchantAllowedOrigin },
  generateClientKey: { requires: 'anyManagementRole', scope: 'self', handler: me.generateClientKey },
  // Users (company and merchant level).
  listCompanyUsers: { requires: [ROLES.usersReadWrite], scope: 'company', handler: users.listCompanyUsers },
  createNewCompanyUser: { requires: [ROLES.usersReadWrite], scope: 'company', handler: users.createNewCompanyUser },
  getCompanyUserDetails: { requires: [ROLES.usersReadWrite], scope: 'company', handler: users.getCompanyUserDetails },
  updateCompanyUserDetails: { requires: [ROLES.usersReadWrite], scope: 'company', handler: users.updateCompanyUserDetails },
  listMerchantUsers: { requires: [ROLES.usersReadWrite], scope: 'merchantPath', handler: users.listMerchantUsers },
  createNewMerchantUser: { requires: [ROLES.usersReadWrite], scope: 'merchantPath', handler: users.createNewMerchantUser },
  getMerchantUserDetails: { requires: [ROLES.usersReadWrite], scope: 'merchantPath', handler: users.getMerchantUserDetails },
  updateMerchantUser: { requires: [ROLES.usersReadWrite], scope: 'merchantPath', handler: users.updateMerchantUser },
  // The console (spec/console): the session's credential, scoped by its handlers to what that credential reaches.
  createConsoleSession: { requires: 'authenticated', scope: 'self', signIn: true, handler: consoleSession.createConsoleSession },
  getConsoleSession: { requires: 'authenticated', scope: 'self', handler: consoleSession.getConsoleSession },
  deleteConsoleSession: { requires: 'authenticated', scope: 'self', handler: consoleSession.deleteConsoleSession },
  listConsoleRequests: { requires: 'authenticated', scope: 'self', handler: consoleRequests.listConsoleRequests },
  getConsoleRequest: { requires: 'authenticated', scope: 'self', handler: consoleRequests.getConsoleRequest },
  // Payments are what the checkout roles reach.
  listConsolePayments: { requires: CHECKOUT_ROLES, scope: 'self', handler: consolePayments.listConsolePayments },
  getConsolePaymentTimeline: { requires: CHECKOUT_ROLES, scope: 'self', handler: consolePayments.getConsolePaymentTimeline },
  streamConsoleEvents: { requires: CHECKOUT_ROLES, scope: 'self', handler: consoleStream.streamConsoleEvents },
  listConsoleWebhookDeliveries: {
    requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite],
    scope: 'self',
    handler: consoleDeliveries.listConsoleWebhookDeliveries,
  },
  // As checkout's advanceSandboxClock: the whole company's time, so a company-level credential only.
  advanceConsoleClock: { requires: 'authenticated', scope: 'ownCompany', handler: consoleClock.advanceConsoleClock },
} satisfies { [Id in OperationId]: OperationEntry<Id> };

/** An operation ready to serve: its policy, whether it is rate-limited, and its handler. */
export interface BuiltOperation extends Policy {
  rateLimited: boolean;
  handle: RequestHandler;
}

/** The handlers, built once per app. */
export function buildHandlers(deps: HandlerDeps): Map<string, BuiltOperation> {
  const built = new Map<string, BuiltOperation>();
  for (const [id, entry] of Object.entries(OPERATIONS) as Array<[OperationId, OperationEntry<OperationId>]>) {
    const handle = entry.handler.build(deps);
    built.set(id, {
      requires: entry.requires,
      scope: entry.scope,
      ...(entry.clientKey && { clientKey: true }),
      ...(entry.signIn && { signIn: true }),
      rateLimited: entry.rateLimited === true,
      handle,
    });
  }
  return built;
}
