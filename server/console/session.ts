import type { Response } from 'express';
import { authenticate } from '../kernel/auth/credentials.js';
import {
  CONSOLE_SESSION_COOKIE,
  CONSOLE_SESSION_SECONDS,
  consoleCsrfToken,
  consoleSessionHash,
  newConsoleSessionToken,
} from '../kernel/auth/console-session.js';
import type { Operation } from '../kernel/http/handler.js';
import { operation } from '../kernel/http/handler.js';
import { callerOf } from '../kernel/http/request-context.js';
import { sendJson } from '../kernel/http/send-json.js';
import { ApiError, ERR_UNAUTHORIZED } from '../kernel/errors.js';
import { sessionView } from './scope.js';

/**
 * The session cookie: script-proof, never sent by another site's page, and over HTTPS only when
 * the request came so or the server's public address is HTTPS (behind a proxy that ends TLS).
 */
function setSessionCookie(res: Response, value: string, maxAgeSeconds: number, publicBaseUrl: string): void {
  const secure = res.req.protocol === 'https' || publicBaseUrl.startsWith('https://') ? '; Secure' : '';
  res.append('Set-Cookie', `${CONSOLE_SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`);
}

/**
 * POST /session: the API key is checked as every API checks it (kernel/auth/credentials.ts), then
 * a session is opened for its credential. It takes no credential of its own (its body is one), so
 * it is built here rather than with `operation()`, which reads the authenticated caller.
 */
export const createConsoleSession: Operation<'createConsoleSession'> = {
  operationId: 'createConsoleSession',
  build: (deps) => async (req, res) => {
    const { apiKey } = req.body as { apiKey: string };
    const credential = await authenticate(deps.store, { apiKey }, (companyId) => deps.clock.now(companyId));
    const token = newConsoleSessionToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + CONSOLE_SESSION_SECONDS * 1000).toISOString();
    const view = await deps.store.transaction(async (tx) => {
      // Ended sessions go as new ones come: the table stays as small as the sessions in use.
      await tx.console.pruneSessions(now.toISOString());
      await tx.console.insertSession({
        tokenHash: consoleSessionHash(tx, token),
        keyHash: tx.credentials.hashKey(apiKey),
        credentialId: credential.id,
        companyId: credential.companyId,
        createdAt: now.toISOString(),
        expiresAt,
      });
      return sessionView(tx, credential, consoleCsrfToken(tx, token), expiresAt);
    });
    setSessionCookie(res, token, CONSOLE_SESSION_SECONDS, deps.config.publicBaseUrl);
    sendJson(res, 200, view);
  },
};

/** GET /session */
export const getConsoleSession = operation('getConsoleSession')(async ({ caller }, deps) => {
  const session = caller.consoleSession;
  // Carried by an API key, there is no session to read.
  if (!session) throw new ApiError(ERR_UNAUTHORIZED, { message: 'Unauthorized: no console session; sign in with POST /session' });
  return deps.store.read((tx) => sessionView(tx, caller.credential, session.csrfToken, session.expiresAt));
});

/** DELETE /session: the row goes, so every instance refuses the cookie from now on. */
export const deleteConsoleSession: Operation<'deleteConsoleSession'> = {
  operationId: 'deleteConsoleSession',
  build: (deps) => async (_req, res) => {
    const session = callerOf(res).consoleSession;
    if (!session) throw new ApiError(ERR_UNAUTHORIZED, { message: 'Unauthorized: no console session to sign out of' });
    await deps.store.transaction((tx) => tx.console.deleteSession(session.tokenHash));
    setSessionCookie(res, '', 0, deps.config.publicBaseUrl);
    sendJson(res, 204, undefined);
  },
};
