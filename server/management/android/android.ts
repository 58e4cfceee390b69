import type { Request } from 'express';
import { unlink } from 'node:fs/promises';
import { operation } from '../../kernel/http/handler.js';
import { adoptUpload, uploadsOf } from '../../kernel/http/uploads.js';
import type { AndroidAppListing, AndroidCertificate } from '../../store/types.js';
import * as domain from './android.domain.js';
import { pageOf } from '../pagination.js';

export const toAppView = (a: AndroidAppListing) => ({
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

/** The multipart `description` field: the spec's JSON body type does not describe the multipart form. */
function descriptionOf(req: Request): string | undefined {
  const form: unknown = req.body;
  if (form === null || typeof form !== 'object' || !('description' in form)) return undefined;
  const { description } = form;
  return typeof description === 'string' && description ? description : undefined;
}

/** GET /companies/{companyId}/androidApps */
export const listAndroidApps = operation('listAndroidApps')(async ({ path, query, caller: { credential } }, deps) => {
  const filter = {
    ...(query.packageName !== undefined && { packageName: query.packageName }),
    ...(query.versionCode !== undefined && { versionCode: query.versionCode }),
  };
  const apps = await deps.store.read((tx) => domain.listApps(tx, credential, path.companyId, filter, pageOf(query, 20)));
  return { data: apps.map(toAppView) };
});

/**
 * POST /companies/{companyId}/androidApps: the APK is already streamed to a temporary file; it
 * is moved into place with the record, and removed again if the record is not committed.
 */
export const uploadAndroidApp = operation('uploadAndroidApp')(async ({ path, caller: { credential }, req }, deps) => {
  let adopted: string | undefined;
  const adopt = async (temporaryPath: string, name: string) => (adopted = await adoptUpload(deps.config.uploadDir, temporaryPath, name));
  const app = await deps.store
    .transaction((tx) => domain.registerApp(tx, deps.clock.now(credential.companyId), credential, path.companyId, uploaded(req), descriptionOf(req), adopt))
    .catch(async (error: unknown) => {
      if (adopted) await unlink(adopted).catch(() => undefined);
      throw error;
    });
  deps.android.enqueue(app.id);
  return { id: app.id };
});

/** GET /companies/{companyId}/androidApps/{id} */
export const getAndroidApp = operation('getAndroidApp')(async ({ path, caller: { credential } }, deps) =>
  toAppView(await deps.store.read((tx) => domain.appOf(tx, credential, path.companyId, path.id))),
);

/** PATCH /companies/{companyId}/androidApps/{id}: read the APK again. */
export const reprocessAndroidApp = operation('reprocessAndroidApp')(async ({ path, caller: { credential } }, deps) => {
  const app = await deps.store.transaction((tx) => domain.reprocessApp(tx, deps.clock.now(credential.companyId), credential, path.companyId, path.id));
  deps.android.enqueue(app.id);
  return { Message: 'The app is being reprocessed.' };
});

/** GET /companies/{companyId}/androidCertificates */
export const listAndroidCertificates = operation('listAndroidCertificates')(async ({ path, query, caller: { credential } }, deps) => {
  const filter = query.certificateName !== undefined ? { name: query.certificateName } : {};
  const list = await deps.store.read((tx) => domain.listCertificates(tx, credential, path.companyId, filter, pageOf(query, 20)));
  return { data: list.map(toCertificateView) };
});

/** POST /companies/{companyId}/androidCertificates */
export const uploadAndroidCertificate = operation('uploadAndroidCertificate')(async ({ path, caller: { credential }, req }, deps) => {
  const read = await domain.readCertificate(uploaded(req));
  const certificate = await deps.store.transaction((tx) =>
    domain.registerCertificate(tx, deps.clock.now(credential.companyId), credential, path.companyId, read, descriptionOf(req)),
  );
  return { id: certificate.id };
});
