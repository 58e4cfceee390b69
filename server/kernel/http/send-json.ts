import type { Response } from 'express';

/**
 * The one way a handler's answer is sent, fresh or replayed: the body without its undefined
 * fields (echoed optional request fields are often absent); a 204 or no body sends none.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.status(status).end();
    return;
  }
  const clean =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) : body;
  res.status(status).json(clean);
}
