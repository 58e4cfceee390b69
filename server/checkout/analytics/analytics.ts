/**
 * Adyen's web library reports its use to Adyen's analytics service. The sandbox answers as the
 * library expects, so that it goes on normally, and keeps nothing: there is no one to read it.
 */
import { randomUUID } from 'node:crypto';
import { operation } from '../../kernel/http/handler.js';

/** POST /v3/analytics: the attempt identifier the library sends its reports under (the one it holds, if any). */
export const setUpAnalytics = operation('setUpAnalytics')(({ body }) => ({ checkoutAttemptId: body.checkoutAttemptId ?? randomUUID() }));

/** POST /v3/analytics/{checkoutAttemptId}: dropped. */
export const sendAnalyticsEvents = operation('sendAnalyticsEvents')(() => undefined);
