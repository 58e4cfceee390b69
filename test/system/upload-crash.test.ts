import { afterEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

let running: RunningProcess | undefined;
afterEach(async () => {
  if (running) await kill(running);
  running = undefined;
});

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path).map((f) => join(name, f)) : [relative(dir, path)];
  });
}

describe('POST /companies/{companyId}/androidApps when the process is killed mid-upload', () => {
  test('When the server is killed with SIGKILL while an APK arrives, then after a restart no stray file is left in the upload folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upload-crash-'));
    const uploadDir = join(dir, 'uploads');
    const env = { DATABASE_PATH: join(dir, 'payments.sqlite'), UPLOAD_DIR: uploadDir, DEMO_COMPANY_API_KEY: COMPANY_KEY, DEMO_MERCHANT_API_KEY: MERCHANT_KEY };
    running = await spawnServer(env);

    // Arrange: an upload that announces 5 MB and sends the first megabyte, then waits.
    const boundary = 'crash-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.apk"\r\nContent-Type: application/vnd.android.package-archive\r\n\r\n`;
    const total = Buffer.byteLength(head) + 5 * 1024 * 1024 + Buffer.byteLength(`\r\n--${boundary}--\r\n`);
    const url = new URL(`${running.baseUrl}/management/v3/companies/DemoCompany/androidApps`);
    const upload = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': total },
    });
    upload.on('error', () => undefined); // the server dies under it
    upload.write(head);
    upload.write(Buffer.alloc(1024 * 1024, 7));
    const deadline = Date.now() + 10_000;
    while (filesBelow(uploadDir).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(filesBelow(uploadDir)).toHaveLength(1); // the part is arriving in a temporary file

    // Act: kill the server in the middle, then start it again.
    await kill(running, 'SIGKILL');
    upload.destroy();
    running = await spawnServer(env);

    // Assert: the half-written temporary file is gone, and nothing else appeared.
    expect(filesBelow(uploadDir)).toEqual([]);
    const apps = await fetch(`${running.baseUrl}/management/v3/companies/DemoCompany/androidApps`, { headers: { 'X-API-Key': COMPANY_KEY } });
    expect(((await apps.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
