import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, RequestHandler } from 'express';
import type { StorageEngine } from 'multer';

/** Where uploads are written while they arrive; only a successful operation moves one out. */
const INCOMING = '.incoming';

/** An uploaded part as the storage engine leaves it on the request (multer's file fields). */
export interface StoredUpload {
  fieldname: string;
  originalname: string;
  path: string;
  size: number;
}

async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * A multer storage engine that streams each part to a temporary file (mode 0600, in a 0700
 * folder) and deletes it when the part fails or is aborted. Nothing is written before the
 * request passed authentication, authorization and the rate limit: the pipeline runs those
 * before the validator, which is what calls multer. The folder is asked for per request, so one
 * engine serves every app of a process (see the validators' cache in app.ts).
 */
export function uploadStorage(uploadDirOf: (req: Request) => string): StorageEngine {
  return {
    _handleFile(req, file, done) {
      const uploadDir = uploadDirOf(req);
      const incoming = join(uploadDir, INCOMING);
      const path = join(incoming, `${randomBytes(16).toString('hex')}.part`);
      ensureDir(uploadDir)
        .then(() => ensureDir(incoming))
        .then(() => {
          const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
          let size = 0;
          let failed = false;
          let finished = false;
          const fail = (error: Error) => {
            if (failed || finished) return;
            failed = true;
            out.destroy();
            void unlink(path)
              .catch(() => undefined)
              .finally(() => done(error));
          };
          file.stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
          });
          file.stream.on('error', fail);
          out.on('error', fail);
          // A dropped connection does not always fail the part's stream: watch the request too.
          const onClose = () => {
            if (!req.complete) fail(new Error('the upload was aborted'));
          };
          req.once('close', onClose);
          out.once('close', () => req.off('close', onClose));
          out.on('finish', () => {
            if (failed) return;
            finished = true;
            done(null, { path, size });
          });
          file.stream.pipe(out);
        })
        .catch((error: unknown) => done(error instanceof Error ? error : new Error(String(error))));
    },
    _removeFile(_req, file, done) {
      unlink(file.path).then(
        () => done(null),
        () => done(null),
      );
    },
  };
}

/** The uploaded parts of a request. */
export function uploadsOf(req: Request): StoredUpload[] {
  return (req as Request & { files?: StoredUpload[] }).files ?? [];
}

/**
 * Deletes every part of the request still in the temporary folder once the response is done,
 * whatever it was: a refusal, a validation error, a failed transaction or a dropped connection
 * leaves nothing behind. A successful operation has moved its file out before that.
 */
export const discardUnadoptedUploads: RequestHandler = (req, res, next) => {
  res.once('close', () => {
    // A part still arriving has no path yet: its own stream error removes it (uploadStorage).
    for (const file of uploadsOf(req)) if (typeof file.path === 'string' && file.path.includes(INCOMING)) void unlink(file.path).catch(() => undefined);
  });
  next();
};

/** Moves an uploaded part into the upload folder under its final name (an operation succeeded). */
export async function adoptUpload(uploadDir: string, temporaryPath: string, name: string): Promise<string> {
  const target = join(uploadDir, name);
  await rename(temporaryPath, target);
  return target;
}

/** At start: uploads that were arriving when the process stopped are removed. */
export async function removeIncomingUploads(uploadDir: string): Promise<void> {
  await rm(join(uploadDir, INCOMING), { recursive: true, force: true });
}
