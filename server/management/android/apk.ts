/**
 * Reads what the platform needs from an APK without loading it whole: the zip's central
 * directory locates AndroidManifest.xml, which is a binary XML (AXML) document; from it the
 * package name, version code, version name and a literal label are read.
 */
import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

export interface ApkManifest {
  packageName: string;
  versionCode: number;
  versionName: string | undefined;
  label: string | undefined;
}

export class InvalidApkError extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** The bytes of one entry of a zip file, read by offset. */
async function readZipEntry(path: string, name: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size < 22) throw new InvalidApkError('the file is too small to be an APK');
    const tailLength = Math.min(size, 22 + 65_535);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new InvalidApkError('no zip directory found');
    const entries = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset + dirSize > size) throw new InvalidApkError('the zip directory points outside the file');
    const dir = Buffer.alloc(dirSize);
    await file.read(dir, 0, dirSize, dirOffset);
    let p = 0;
    for (let i = 0; i < entries; i++) {
      if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new InvalidApkError('a broken zip directory');
      const method = dir.readUInt16LE(p + 10);
      const compressed = dir.readUInt32LE(p + 20);
      const uncompressed = dir.readUInt32LE(p + 24);
      const nameLength = dir.readUInt16LE(p + 28);
      const extraLength = dir.readUInt16LE(p + 30);
      const commentLength = dir.readUInt16LE(p + 32);
      const localOffset = dir.readUInt32LE(p + 42);
      const entryName = dir.toString('utf8', p + 46, p + 46 + nameLength);
      p += 46 + nameLength + extraLength + commentLength;
      if (entryName !== name) continue;
      if (uncompressed > MAX_MANIFEST_BYTES || compressed > MAX_MANIFEST_BYTES) throw new InvalidApkError(`${name} is implausibly large`);
      const local = Buffer.alloc(30);
      await file.read(local, 0, 30, localOffset);
      if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new InvalidApkError('a broken zip entry');
      const dataStart = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const data = Buffer.alloc(compressed);
      await file.read(data, 0, compressed, dataStart);
      if (method === 0) return data;
      if (method === 8) {
        try {
          return inflateRawSync(data, { maxOutputLength: MAX_MANIFEST_BYTES });
        } catch {
          throw new InvalidApkError(`${name} cannot be inflated`);
        }
      }
      throw new InvalidApkError(`${name} uses an unsupported compression method`);
    }
    throw new InvalidApkError(`the APK has no ${name}`);
  } finally {
    await file.close();
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
          const value = dataType === TYPE_STRING ? strings[data] : dataType === TYPE_INT_DEC || dataType === TYPE_INT_HEX ? data : raw >= 0 ? strings[raw] : undefined;
          if (value === undefined) continue;
          if (element === 'manifest' && ['package', 'versionCode', 'versionName'].includes(name)) found[name] = value;
          if (element === 'application' && name === 'label' && typeof value === 'string') found.label = value;
        }
      }
      p += size;
    }
    const packageName = found.package;
    const versionCode = typeof found.versionCode === 'string' ? Number(found.versionCode) : found.versionCode;
    if (typeof packageName !== 'string' || !/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(packageName)) throw new InvalidApkError('the manifest has no valid package name');
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
