import { Router } from 'express';
import type { Clock } from '../../kernel/clock.js';
import { CLIENTSIDE_BASE } from '../../kernel/http/area.js';
import type { Store } from '../../store/tx.js';
import { credentialOf } from '../secured-fields/secured-fields-page.js';
import { qrModules, qrPng } from './qr-code.js';

/** Where Adyen's web library loads the picture of a `qrCode` action's `qrCodeData` from. */
export const BARCODE_PATH = `${CLIENTSIDE_BASE}/utility/v1/barcode.png`;

/**
 * GET {BARCODE_PATH}?type=qrCode&data=…&clientKey=…: the QR code of the data, as a PNG. The
 * library loads it as an image (no Origin, no JSON), so it is served as a page is: an unknown or
 * inactive client key, another barcode type or data too long for a code gets 404.
 */
export function barcodeImage(store: Store, clock: Clock): Router {
  const router = Router();
  router.get(BARCODE_PATH, async (req, res) => {
    const { type, data, clientKey } = req.query;
    const modules = type === 'qrCode' && typeof data === 'string' ? qrModules(data) : undefined;
    const credential = typeof clientKey === 'string' ? await credentialOf(store, clock, clientKey) : undefined;
    if (!modules || !credential) return res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
    res.status(200).set({ 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, max-age=300' }).send(qrPng(modules));
  });
  return router;
}
