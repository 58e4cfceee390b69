import type { RequestHandler } from 'express';
import type { operations as CheckoutOperations } from '../generated/checkout.js';
import type { operations as ManagementOperations } from '../generated/management.js';
import { CHECKOUT_ROLES, ROLES, type Requirement } from './auth/roles.js';
import * as modifications from './checkout/modifications.js';
import * as orders from './checkout/orders.js';
import * as payments from './checkout/payments.js';
import * as sandbox from './checkout/sandbox.js';
import * as sessions from './checkout/sessions.js';
import * as paymentMethods from './checkout/payment-methods.js';
import * as recurring from './checkout/recurring.js';
import * as donations from './checkout/donations.js';
import * as paymentLinks from './checkout/payment-links.js';
import * as utility from './checkout/utility.js';
import * as accounts from './management/accounts.js';
import * as me from './management/me.js';
import * as webhooks from './management/webhooks.js';
import * as credentials from './management/credentials.js';
import * as money from './management/money-settings.js';
import * as android from './management/android.js';
import * as terminal from './management/terminal-settings.js';
import type { HandlerDeps, HandlerFactory } from './http/types.js';

/** Operations this service sends (the spec's `webhooks`), rather than serves. */
type OutboundOperationId = 'standardNotification';

export type OperationId = Exclude<keyof CheckoutOperations | keyof ManagementOperations, OutboundOperationId>;

export interface OperationEntry {
  /** Roles of design section 5: any one suffices. */
  requires: Requirement;
  handler: HandlerFactory;
  /** Subject to the per-credential rate limit (design section 8). */
  rateLimited?: true;
}

const ANDROID_READ = [ROLES.androidFilesRead, ROLES.androidFilesReadWrite, ROLES.terminalActionsRead, ROLES.terminalActionsReadWrite];
const TERMINAL_READ = [ROLES.terminalSettingsRead, ROLES.terminalSettingsReadWrite];
const TERMINAL_WRITE = [ROLES.terminalSettingsReadWrite];

/**
 * Every operation of both specs, by operationId: the join key of spec, handler, test and
 * examples. `satisfies` makes an operation without a handler a type error.
 */
export const OPERATIONS = {
  payments: { requires: CHECKOUT_ROLES, handler: payments.payments },
  paymentsDetails: { requires: CHECKOUT_ROLES, handler: payments.paymentsDetails },
  captureAuthorisedPayment: { requires: CHECKOUT_ROLES, handler: modifications.captureAuthorisedPayment },
  refundCapturedPayment: { requires: CHECKOUT_ROLES, handler: modifications.refundCapturedPayment },
  cancelAuthorisedPaymentByPspReference: { requires: CHECKOUT_ROLES, handler: modifications.cancelAuthorisedPaymentByPspReference },
  cancelAuthorisedPayment: { requires: CHECKOUT_ROLES, handler: modifications.cancelAuthorisedPayment },
  refundOrCancelPayment: { requires: CHECKOUT_ROLES, handler: modifications.refundOrCancelPayment },
  updateAuthorisedAmount: { requires: CHECKOUT_ROLES, handler: modifications.updateAuthorisedAmount },
  orders: { requires: CHECKOUT_ROLES, handler: orders.orders },
  cancelOrder: { requires: CHECKOUT_ROLES, handler: orders.cancelOrder },
  sessions: { requires: CHECKOUT_ROLES, handler: sessions.sessions },
  sessionPayments: { requires: CHECKOUT_ROLES, handler: sessions.sessionPayments },
  getResultOfPaymentSession: { requires: CHECKOUT_ROLES, handler: sessions.getResultOfPaymentSession },
  paymentMethods: { requires: CHECKOUT_ROLES, handler: paymentMethods.paymentMethods },
  cardDetails: { requires: CHECKOUT_ROLES, handler: paymentMethods.cardDetails },
  storedPaymentMethods: { requires: CHECKOUT_ROLES, handler: recurring.storedPaymentMethods },
  getTokensForStoredPaymentDetails: { requires: CHECKOUT_ROLES, handler: recurring.getTokensForStoredPaymentDetails },
  deleteTokenForStoredPaymentDetails: { requires: CHECKOUT_ROLES, handler: recurring.deleteTokenForStoredPaymentDetails },
  forward: { requires: CHECKOUT_ROLES, handler: recurring.forward },
  donationCampaigns: { requires: CHECKOUT_ROLES, handler: donations.donationCampaigns },
  paymentLinks: { requires: CHECKOUT_ROLES, handler: paymentLinks.paymentLinks },
  getPaymentLink: { requires: CHECKOUT_ROLES, handler: paymentLinks.getPaymentLink },
  updatePaymentLink: { requires: CHECKOUT_ROLES, handler: paymentLinks.updatePaymentLink },
  updatesOrderForPaypalExpressCheckout: { requires: CHECKOUT_ROLES, handler: utility.updatesOrderForPaypalExpressCheckout },
  originKeys: { requires: CHECKOUT_ROLES, handler: utility.originKeys },
  getSandboxClock: { requires: 'authenticated', handler: sandbox.getSandboxClock },
  advanceSandboxClock: { requires: 'authenticated', handler: sandbox.advanceSandboxClock },

  getApiCredentialDetails: { requires: 'authenticated', handler: me.getApiCredentialDetails },
  listMerchantAccounts: { requires: [ROLES.accountsRead, ROLES.accountsReadWrite], handler: accounts.listMerchantAccounts },
  listCompanyApiCredentials: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.listCompanyApiCredentials },
  getCompanyApiCredential: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.getCompanyApiCredential },
  listCompanyAllowedOrigins: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.listCompanyAllowedOrigins },
  generateNewCompanyApiKey: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.generateNewCompanyApiKey },
  listMerchantApiCredentials: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.listMerchantApiCredentials },
  getMerchantApiCredential: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.getMerchantApiCredential },
  generateNewMerchantApiKey: { requires: [ROLES.apiCredentialsReadWrite], handler: credentials.generateNewMerchantApiKey },
  getAllowedOrigins: { requires: 'anyManagementRole', handler: credentials.getAllowedOrigins },
  addAllowedOrigin: { requires: 'anyManagementRole', handler: credentials.addAllowedOrigin },
  getAllowedOriginDetails: { requires: 'anyManagementRole', handler: credentials.getAllowedOriginDetails },
  removeAllowedOrigin: { requires: 'anyManagementRole', handler: credentials.removeAllowedOrigin },
  listPayoutSettings: { requires: [ROLES.payoutSettingsRead, ROLES.payoutSettingsReadWrite], handler: money.listPayoutSettings },
  addPayoutSetting: { requires: [ROLES.payoutSettingsReadWrite], handler: money.addPayoutSetting },
  getPayoutSetting: { requires: [ROLES.payoutSettingsRead, ROLES.payoutSettingsReadWrite], handler: money.getPayoutSetting },
  updatePayoutSetting: { requires: [ROLES.payoutSettingsReadWrite], handler: money.updatePayoutSetting },
  deletePayoutSetting: { requires: [ROLES.payoutSettingsReadWrite], handler: money.deletePayoutSetting },
  getAllPaymentMethods: { requires: [ROLES.paymentMethodsRead, ROLES.paymentMethodsReadWrite], handler: money.getAllPaymentMethods },
  requestPaymentMethod: { requires: [ROLES.paymentMethodsReadWrite], handler: money.requestPaymentMethod },
  getPaymentMethodDetails: { requires: [ROLES.paymentMethodsRead, ROLES.paymentMethodsReadWrite], handler: money.getPaymentMethodDetails },
  updatePaymentMethod: { requires: [ROLES.paymentMethodsReadWrite], handler: money.updatePaymentMethod },
  addApplePayDomain: { requires: [ROLES.paymentMethodsReadWrite], handler: money.addApplePayDomain },
  getApplePayDomains: { requires: [ROLES.paymentMethodsRead, ROLES.paymentMethodsReadWrite], handler: money.getApplePayDomains },
  listSplitConfigurations: { requires: [ROLES.splitConfigurationReadWrite], handler: money.listSplitConfigurations },
  createSplitConfiguration: { requires: [ROLES.splitConfigurationReadWrite], handler: money.createSplitConfiguration },
  getSplitConfiguration: { requires: [ROLES.splitConfigurationReadWrite], handler: money.getSplitConfiguration },
  updateSplitConfigurationDescription: { requires: [ROLES.splitConfigurationReadWrite], handler: money.updateSplitConfigurationDescription },
  deleteSplitConfiguration: { requires: [ROLES.splitConfigurationReadWrite], handler: money.deleteSplitConfiguration },
  createRule: { requires: [ROLES.splitConfigurationReadWrite], handler: money.createRule },
  updateSplitConditions: { requires: [ROLES.splitConfigurationReadWrite], handler: money.updateSplitConditions },
  deleteSplitConfigurationRule: { requires: [ROLES.splitConfigurationReadWrite], handler: money.deleteSplitConfigurationRule },
  updateSplitLogic: { requires: [ROLES.splitConfigurationReadWrite], handler: money.updateSplitLogic },
  listAndroidApps: { requires: ANDROID_READ, handler: android.listAndroidApps, rateLimited: true },
  uploadAndroidApp: { requires: [ROLES.androidFilesReadWrite], handler: android.uploadAndroidApp, rateLimited: true },
  getAndroidApp: { requires: ANDROID_READ, handler: android.getAndroidApp },
  reprocessAndroidApp: { requires: [ROLES.androidFilesReadWrite], handler: android.reprocessAndroidApp, rateLimited: true },
  listAndroidCertificates: { requires: ANDROID_READ, handler: android.listAndroidCertificates, rateLimited: true },
  uploadAndroidCertificate: { requires: [ROLES.androidFilesReadWrite], handler: android.uploadAndroidCertificate, rateLimited: true },
  getCompanyTerminalSettings: { requires: TERMINAL_READ, handler: terminal.getCompanyTerminalSettings },
  updateCompanyTerminalSettings: { requires: TERMINAL_WRITE, handler: terminal.updateCompanyTerminalSettings, rateLimited: true },
  getMerchantTerminalSettings: { requires: TERMINAL_READ, handler: terminal.getMerchantTerminalSettings },
  updateMerchantTerminalSettings: { requires: TERMINAL_WRITE, handler: terminal.updateMerchantTerminalSettings, rateLimited: true },
  getStoreTerminalSettingsByReference: { requires: TERMINAL_READ, handler: terminal.getStoreTerminalSettingsByReference },
  updateStoreTerminalSettingsByReference: { requires: TERMINAL_WRITE, handler: terminal.updateStoreTerminalSettingsByReference, rateLimited: true },
  getStoreTerminalSettings: { requires: TERMINAL_READ, handler: terminal.getStoreTerminalSettings },
  updateStoreTerminalSettings: { requires: TERMINAL_WRITE, handler: terminal.updateStoreTerminalSettings, rateLimited: true },
  getTerminalTerminalSettings: { requires: TERMINAL_READ, handler: terminal.getTerminalTerminalSettings },
  updateTerminalTerminalSettings: { requires: TERMINAL_WRITE, handler: terminal.updateTerminalTerminalSettings, rateLimited: true },
  listAllWebhooks: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], handler: webhooks.listAllWebhooks },
  setUpWebhook: { requires: [ROLES.webhooksReadWrite], handler: webhooks.setUpWebhook },
  getWebhook: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], handler: webhooks.getWebhook },
  updateWebhook: { requires: [ROLES.webhooksReadWrite], handler: webhooks.updateWebhook },
  removeWebhook: { requires: [ROLES.webhooksReadWrite], handler: webhooks.removeWebhook },
  generateHmacKey: { requires: [ROLES.webhooksReadWrite], handler: webhooks.generateHmacKey },
  testWebhook: { requires: [ROLES.webhooksReadWrite], handler: webhooks.testWebhook },
  listWebhookEvents: { requires: [ROLES.webhooksRead, ROLES.webhooksReadWrite], handler: webhooks.listWebhookEvents },
  resendWebhookEvent: { requires: [ROLES.webhooksReadWrite], handler: webhooks.resendWebhookEvent },
} satisfies Record<OperationId, OperationEntry>;

/** The handlers, built once per app. */
export function buildHandlers(deps: HandlerDeps): Map<string, { requires: Requirement; rateLimited: boolean; handle: RequestHandler }> {
  const built = new Map<string, { requires: Requirement; rateLimited: boolean; handle: RequestHandler }>();
  for (const [id, entry] of Object.entries(OPERATIONS) as Array<[string, OperationEntry]>) {
    built.set(id, { requires: entry.requires, rateLimited: entry.rateLimited === true, handle: entry.handler(deps) });
  }
  return built;
}
