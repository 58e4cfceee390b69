import type { RequestHandler } from 'express';
import type { Clock } from '../clock.js';
import type { Store } from '../../store/tx.js';

/** The hosted pages' stylesheet and script: they read no time. */
const ASSETS = /^\/hosted\/assets\//;

/**
 * Reads every company's sandbox clock before a hosted page (payment link, 3-D Secure, the other
 * methods' pages) decides anything by the time. These pages carry no credential, so the
 * authentication that refreshes the clock for API requests never runs for them; when other
 * instances share the store, one may have moved a clock since this one last read it (a link that
 * expired by an advance made there must show expired here). When none can, this process is the
 * only one that moves a clock, so there is nothing to read.
 */
export function freshClock(store: Store, clock: Clock): RequestHandler {
  if (!store.sharedBetweenProcesses) return (_req, _res, next) => next();
  return async (req, _res, next) => {
    if (!ASSETS.test(req.originalUrl)) await store.read((tx) => clock.refresh(tx));
    next();
  };
}
