import type { Request } from 'express';
import { unlink } from 'node:fs/promises';
import { pathParam } from '../http/links.js';
import { adoptUpload, uploadsOf } from '../http/uploads.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerFactory } from '../http/types.js';
import type { AndroidApp, AndroidCertificate } from '../store/types.js';
import * as domain from './android.domain.js';
import { pageOf } from './pagination.js';

export const toAppView = (a: AndroidApp) => ({
  id: a.id,
  status: a.status,
  ...(a.packageName !== null && { packageName: a.packageName }),
  ...(a.versionCode !== null && { versionCode: a.versionCode }),
  ...(a.versionName !== null && { versionName: a.versionName }),
  ...(a.label !== null && { label: a.label }),
  ...(a.description !== null && { description: a.description }),
  ...(a.errorCode !== null && { errorCode: a.errorCode, errors: [{ errorCode: a.errorCode, terminalModels: [] }] }),
});

export const toCertificateView = (c: AndroidCertificate) => ({
  id: c.id,
  name: c.name,
  extension: c.extension,
  status: c.status,
  notBefore: c.notBefore,
  notAfter: c.notAfter,
  ...(c.description !== null && { description: c.description }),
});

/** The uploaded `file` part, as the upload storage put it on disk (a temporary file). */
function uploaded(req: Request): domain.UploadedFile | undefined {
  const file = uploadsOf(req).find((f) => f.fieldname === 'file');
  return file && { path: file.path, size: file.size, originalName: file.originalname };
}
const descriptionOf = (req: Request) => (typeof req.body?.description === 'string' && req.body.description ? (req.body.description as string) : undefined);

/** GET /companies/{companyId}/androidApps */
export const listAndroidApps: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const filter = {
    ...(typeof req.query.packageName === 'string' && { packageName: req.query.packageName }),
    ...(req.query.versionCode !== undefined && { versionCode: Number(req.query.versionCode) }),
  };
  const apps = await deps.store.read((tx) => domain.listApps(tx, credential, pathParam(req, 'companyId'), filter, pageOf(req.query, 20)));
  res.json({ data: apps.map(toAppView) });
};

/**
 * POST /companies/{companyId}/androidApps: the APK is already streamed to a temporary file; it
 * is moved into place with the record, and removed again if the record is not committed.
 */
export const uploadAndroidApp: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  let adopted: string | undefined;
  const adopt = async (path: string, name: string) => (adopted = await adoptUpload(deps.config.uploadDir, path, name));
  const app = await deps.store
    .transaction((tx) => domain.registerApp(tx, deps.clock.now(credential.companyId), credential, pathParam(req, 'companyId'), uploaded(req), descriptionOf(req), adopt))
    .catch(async (error: unknown) => {
      if (adopted) await unlink(adopted).catch(() => undefined);
      throw error;
    });
  deps.android.enqueue(app.id);
  res.json({ id: app.id });
};

/** GET /companies/{companyId}/androidApps/{id} */
export const getAndroidApp: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  res.json(toAppView(await deps.store.read((tx) => domain.appOf(tx, credential, pathParam(req, 'companyId'), pathParam(req, 'id')))));
};

/** PATCH /companies/{companyId}/androidApps/{id}: read the APK again. */
export const reprocessAndroidApp: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const app = await deps.store.transaction((tx) => domain.reprocessApp(tx, deps.clock.now(credential.companyId), credential, pathParam(req, 'companyId'), pathParam(req, 'id')));
  deps.android.enqueue(app.id);
  res.json({ Message: 'The app is being reprocessed.' });
};

/** GET /companies/{companyId}/androidCertificates */
export const listAndroidCertificates: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const filter = typeof req.query.certificateName === 'string' ? { name: req.query.certificateName } : {};
  const list = await deps.store.read((tx) => domain.listCertificates(tx, credential, pathParam(req, 'companyId'), filter, pageOf(req.query, 20)));
  res.json({ data: list.map(toCertificateView) });
};

/** POST /companies/{companyId}/androidCertificates */
export const uploadAndroidCertificate: HandlerFactory = (deps) => async (req, res) => {
  const { credential } = callerOf(res);
  const companyId = pathParam(req, 'companyId');
  const read = await domain.readCertificate(uploaded(req));
  const certificate = await deps.store.transaction((tx) => domain.registerCertificate(tx, deps.clock.now(credential.companyId), credential, companyId, read, descriptionOf(req)));
  res.json({ id: certificate.id });
};

