import { X509Certificate, randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { extname, basename } from 'node:path';
import { ApiError, ERR_FIELD_INVALID, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { AndroidApp, AndroidCertificate, Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany } from '../accounts/accounts.domain.js';
import { InvalidApkError, readApkManifest } from './apk.js';
import type { PageRequest } from '../pagination.js';

export interface UploadedFile {
  path: string;
  size: number;
  originalName: string;
}

const newId = (prefix: string) => `${prefix}${randomBytes(16).toString('hex').toUpperCase().slice(0, 26)}`;
const missingFile = () =>
  new ApiError(ERR_FIELD_INVALID, {
    message: "Invalid field 'file': send the file as multipart/form-data in the part 'file'",
    invalidFields: [{ name: 'file', value: '', message: 'is required' }],
  });

export async function listApps(tx: Tx, credential: Credential, companyId: string, filter: { packageName?: string; versionCode?: number }, page: PageRequest) {
  await visibleCompany(tx, credential, companyId);
  return tx.android.listApps(companyId, filter, (page.pageNumber - 1) * page.pageSize, page.pageSize);
}

export async function appOf(tx: Tx, credential: Credential, companyId: string, id: string): Promise<AndroidApp> {
  await visibleCompany(tx, credential, companyId);
  const app = await tx.android.getApp(id);
  if (!app || app.companyId !== companyId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Android app ${id} not found` });
  return app;
}

/**
 * Records an upload that is already on disk; it is read in the background (status `processing`).
 * `adopt` moves the temporary file to its final name: only an app that is recorded keeps a file.
 */
export async function registerApp(
  tx: Tx,
  now: Date,
  credential: Credential,
  companyId: string,
  file: UploadedFile | undefined,
  description: string | undefined,
  adopt: (temporaryPath: string, name: string) => Promise<string>,
): Promise<AndroidApp> {
  await visibleCompany(tx, credential, companyId);
  if (!file) throw missingFile();
  const id = newId('ANDA');
  const filePath = await adopt(file.path, `${id}.apk`);
  const app: AndroidApp = {
    id,
    companyId,
    status: 'processing',
    packageName: null,
    versionCode: null,
    versionName: null,
    label: null,
    description: description ?? null,
    errorCode: null,
    filePath,
    fileSize: file.size,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.android.insertApp(app);
  return app;
}

/** Reads the APK: `ready` with its manifest data, `invalid` when it is not an APK, `error` when reading failed otherwise. */
export async function processedApp(app: AndroidApp, now: Date): Promise<AndroidApp> {
  try {
    const manifest = await readApkManifest(app.filePath);
    return {
      ...app,
      status: 'ready',
      packageName: manifest.packageName,
      versionCode: manifest.versionCode,
      versionName: manifest.versionName ?? null,
      label: manifest.label ?? null,
      errorCode: null,
      updatedAt: now.toISOString(),
    };
  } catch (error) {
    const invalid = error instanceof InvalidApkError;
    return { ...app, status: invalid ? 'invalid' : 'error', errorCode: invalid ? 'InvalidApk' : 'ProcessingError', updatedAt: now.toISOString() };
  }
}

export async function reprocessApp(tx: Tx, now: Date, credential: Credential, companyId: string, id: string): Promise<AndroidApp> {
  const app = await appOf(tx, credential, companyId, id);
  const again: AndroidApp = { ...app, status: 'processing', updatedAt: now.toISOString() };
  await tx.android.updateApp(again);
  return again;
}

export async function listCertificates(tx: Tx, credential: Credential, companyId: string, filter: { name?: string }, page: PageRequest) {
  await visibleCompany(tx, credential, companyId);
  return tx.android.listCertificates(companyId, filter, (page.pageNumber - 1) * page.pageSize, page.pageSize);
}

/** Reads a `.pem` or `.crt` certificate; anything else is refused. The file is not kept. */
export async function readCertificate(file: UploadedFile | undefined): Promise<{ name: string; extension: string; notBefore: string; notAfter: string }> {
  if (!file) throw missingFile();
  try {
    const extension = extname(file.originalName).toLowerCase();
    if (extension !== '.pem' && extension !== '.crt') {
      throw new ApiError(ERR_FIELD_INVALID, {
        message: "Invalid field 'file': only .pem and .crt certificates are accepted",
        invalidFields: [{ name: 'file', value: file.originalName, message: 'must be .pem or .crt' }],
      });
    }
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(await readFile(file.path));
    } catch {
      throw new ApiError(ERR_FIELD_INVALID, {
        message: "Invalid field 'file': it is not an X.509 certificate",
        invalidFields: [{ name: 'file', value: file.originalName, message: 'is not a certificate' }],
      });
    }
    return {
      name: basename(file.originalName, extname(file.originalName)),
      extension,
      notBefore: new Date(certificate.validFrom).toISOString(),
      notAfter: new Date(certificate.validTo).toISOString(),
    };
  } finally {
    await unlink(file.path).catch(() => undefined);
  }
}

export async function registerCertificate(
  tx: Tx,
  now: Date,
  credential: Credential,
  companyId: string,
  read: { name: string; extension: string; notBefore: string; notAfter: string },
  description: string | undefined,
): Promise<AndroidCertificate> {
  await visibleCompany(tx, credential, companyId);
  const certificate: AndroidCertificate = {
    id: newId('ANDC'),
    companyId,
    ...read,
    description: description ?? null,
    status: 'ready',
    createdAt: now.toISOString(),
  };
  await tx.android.insertCertificate(certificate);
  return certificate;
}
