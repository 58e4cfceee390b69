/**
 * Reads what the platform needs from an APK without loading it whole: yauzl finds
 * AndroidManifest.xml in the zip, which is a binary XML (AXML) document; from it the package
 * name, version code, version name and a literal label are read (the AXML reading is ours: the
 * maintained APK readers load the whole archive into memory, and uploads reach 200 MB).
 */
import type { Entry, ZipFile } from 'yauzl';

export interface ApkManifest {
  packageName: string;
  versionCode: number;
  versionName: string | undefined;
  label: string | undefined;
}

export class InvalidApkError extends Error {}

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * The bytes of one entry of a zip file, found through its central directory with yauzl (a
 * maintained zip reader: it validates the structure and inflates lazily), never the whole file.
 */
async function readZipEntry(path: string, name: string): Promise<Buffer> {
  // Loaded when an APK is read: a server that is sent none does not load it at start.
  const { default: yauzl } = await import('yauzl');
  let zip: ZipFile;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, opened) => (error ? reject(error) : resolve(opened))),
    );
  } catch {
    throw new InvalidApkError('the file is not a zip archive');
  }
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      zip.on('error', () => reject(new InvalidApkError('a broken zip directory')));
      zip.on('end', () => reject(new InvalidApkError(`the APK has no ${name}`)));
      zip.on('entry', (entry: Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        if (entry.uncompressedSize > MAX_MANIFEST_BYTES || entry.compressedSize > MAX_MANIFEST_BYTES)
          return reject(new InvalidApkError(`${name} is implausibly large`));
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(new InvalidApkError(`${name} cannot be read: ${error.message}`));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', () => reject(new InvalidApkError(`${name} cannot be inflated`)));
          stream.on('end', () => resolve(Buffer.concat(chunks)));
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

const RES_STRING_POOL = 0x0001;
const RES_XML = 0x0003;
const RES_XML_RESOURCE_MAP = 0x0180;
const RES_XML_START_ELEMENT = 0x0102;
const TYPE_STRING = 0x03;
const TYPE_INT_DEC = 0x10;
const TYPE_INT_HEX = 0x11;
/** Attribute resource ids of the android namespace, for manifests whose attribute names are empty. */
const ANDROID_ATTRIBUTES: Record<number, string> = { 0x0101021b: 'versionCode', 0x0101021c: 'versionName', 0x01010001: 'label' };

function readStringPool(buf: Buffer, at: number): string[] {
  const headerSize = buf.readUInt16LE(at + 2);
  const count = buf.readUInt32LE(at + 8);
  const flags = buf.readUInt32LE(at + 16);
  const stringsStart = buf.readUInt32LE(at + 20);
  const utf8 = (flags & 0x100) !== 0;
  const strings: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = at + stringsStart + buf.readUInt32LE(at + headerSize + i * 4);
    if (utf8) {
      p += buf[p]! & 0x80 ? 2 : 1; // length in characters
      let bytes = buf[p]!;
      if (bytes & 0x80) {
        bytes = ((bytes & 0x7f) << 8) | buf[p + 1]!;
        p += 2;
      } else p += 1;
      strings.push(buf.toString('utf8', p, p + bytes));
    } else {
      let chars = buf.readUInt16LE(p);
      if (chars & 0x8000) {
        chars = ((chars & 0x7fff) << 16) | buf.readUInt16LE(p + 2);
        p += 4;
      } else p += 2;
      strings.push(buf.toString('utf16le', p, p + chars * 2));
    }
  }
  return strings;
}

/** The package name, versions and label from a binary AndroidManifest.xml. */
export function parseBinaryManifest(buf: Buffer): ApkManifest {
  try {
    if (buf.length < 8 || buf.readUInt16LE(0) !== RES_XML) throw new InvalidApkError('AndroidManifest.xml is not binary XML');
    let strings: string[] = [];
    let resourceIds: number[] = [];
    const found: Record<string, string | number> = {};
    let p = buf.readUInt16LE(2);
    while (p + 8 <= buf.length) {
      const type = buf.readUInt16LE(p);
      const size = buf.readUInt32LE(p + 4);
      if (size < 8 || p + size > buf.length) throw new InvalidApkError('a broken chunk in AndroidManifest.xml');
      if (type === RES_STRING_POOL) strings = readStringPool(buf, p);
      else if (type === RES_XML_RESOURCE_MAP) resourceIds = Array.from({ length: (size - 8) / 4 }, (_, i) => buf.readUInt32LE(p + 8 + i * 4));
      else if (type === RES_XML_START_ELEMENT) {
        const element = strings[buf.readUInt32LE(p + 20)];
        const attributeStart = buf.readUInt16LE(p + 24);
        const attributeSize = buf.readUInt16LE(p + 26);
        const attributeCount = buf.readUInt16LE(p + 28);
        for (let i = 0; i < attributeCount; i++) {
          const a = p + 16 + attributeStart + i * attributeSize;
          const nameIndex = buf.readUInt32LE(a + 4);
          const name = strings[nameIndex] || ANDROID_ATTRIBUTES[resourceIds[nameIndex] ?? -1] || '';
          const raw = buf.readInt32LE(a + 8);
          const dataType = buf[a + 15]!;
          const data = buf.readUInt32LE(a + 16);
          const value =
            dataType === TYPE_STRING ? strings[data] : dataType === TYPE_INT_DEC || dataType === TYPE_INT_HEX ? data : raw >= 0 ? strings[raw] : undefined;
          if (value === undefined) continue;
          if (element === 'manifest' && ['package', 'versionCode', 'versionName'].includes(name)) found[name] = value;
          if (element === 'application' && name === 'label' && typeof value === 'string') found.label = value;
        }
      }
      p += size;
    }
    const packageName = found.package;
    const versionCode = typeof found.versionCode === 'string' ? Number(found.versionCode) : found.versionCode;
    if (typeof packageName !== 'string' || !/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(packageName))
      throw new InvalidApkError('the manifest has no valid package name');
    if (typeof versionCode !== 'number' || !Number.isSafeInteger(versionCode)) throw new InvalidApkError('the manifest has no version code');
    return {
      packageName,
      versionCode,
      versionName: typeof found.versionName === 'string' ? found.versionName : typeof found.versionName === 'number' ? String(found.versionName) : undefined,
      label: typeof found.label === 'string' ? found.label : undefined,
    };
  } catch (error) {
    if (error instanceof InvalidApkError) throw error;
    throw new InvalidApkError('AndroidManifest.xml cannot be read');
  }
}

export async function readApkManifest(path: string): Promise<ApkManifest> {
  return parseBinaryManifest(await readZipEntry(path, 'AndroidManifest.xml'));
}
