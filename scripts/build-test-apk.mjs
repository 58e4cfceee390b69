#!/usr/bin/env node
// Builds a small valid APK for tests: a zip with a binary (AXML) AndroidManifest.xml and a
// placeholder classes.dex. `node scripts/build-test-apk.mjs out.apk com.example.app 7 1.7.0 Label`
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';

const u16 = (n) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const chunk = (type, headerSize, body) => Buffer.concat([u16(type), u16(headerSize), u32(8 + body.length), body]);

/** A UTF-8 string pool. */
function stringPool(strings) {
  const data = [];
  const offsets = [];
  let at = 0;
  for (const s of strings) {
    const bytes = Buffer.from(s, 'utf8');
    const entry = Buffer.concat([Buffer.from([s.length, bytes.length]), bytes, Buffer.from([0])]);
    offsets.push(at);
    at += entry.length;
    data.push(entry);
  }
  let body = Buffer.concat(data);
  while (body.length % 4) body = Buffer.concat([body, Buffer.from([0])]);
  const headerSize = 28;
  const stringsStart = headerSize + strings.length * 4;
  const header = Buffer.concat([u32(strings.length), u32(0), u32(0x100), u32(stringsStart), u32(0)]);
  return chunk(0x0001, headerSize, Buffer.concat([header, ...offsets.map(u32), body]));
}

/** A start element with typed attributes: [nsIndex, nameIndex, rawValueIndex, dataType, data]. */
function startElement(nameIndex, nsIndex, attributes) {
  const ext = Buffer.concat([u32(nsIndex), u32(nameIndex), u16(20), u16(20), u16(attributes.length), u16(0), u16(0), u16(0)]);
  const attrs = attributes.map(([ns, name, raw, type, data]) => Buffer.concat([u32(ns), u32(name), u32(raw), u16(8), Buffer.from([0, type]), u32(data)]));
  return chunk(0x0102, 16, Buffer.concat([u32(1), u32(0xffffffff), ext, ...attrs]));
}
const endElement = (nameIndex, nsIndex) => chunk(0x0103, 16, Buffer.concat([u32(1), u32(0xffffffff), u32(nsIndex), u32(nameIndex)]));
const namespace = (type, prefix, uri) => chunk(type, 16, Buffer.concat([u32(1), u32(0xffffffff), u32(prefix), u32(uri)]));

export function binaryManifest({ packageName, versionCode, versionName, label }) {
  // 0 versionCode, 1 versionName, 2 label: attribute names backed by the resource map.
  const strings = [
    'versionCode',
    'versionName',
    'label',
    'android',
    'http://schemas.android.com/apk/res/android',
    'manifest',
    'package',
    packageName,
    versionName,
    'application',
    label,
  ];
  const NONE = 0xffffffff;
  const body = Buffer.concat([
    stringPool(strings),
    chunk(0x0180, 8, Buffer.concat([u32(0x0101021b), u32(0x0101021c), u32(0x01010001)])),
    namespace(0x0100, 3, 4),
    startElement(5, NONE, [
      [4, 0, NONE, 0x10, versionCode],
      [4, 1, 8, 0x03, 8],
      [NONE, 6, 7, 0x03, 7],
    ]),
    startElement(9, NONE, [[4, 2, 10, 0x03, 10]]),
    endElement(9, NONE),
    endElement(5, NONE),
    namespace(0x0101, 3, 4),
  ]);
  return Buffer.concat([u16(0x0003), u16(8), u32(8 + body.length), body]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A zip archive of the entries, deflated. */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = Buffer.from(name);
    const data = deflateRawSync(content);
    const common = Buffer.concat([
      u16(20),
      u16(0),
      u16(8),
      u16(0),
      u16(0),
      u32(crc32(content)),
      u32(data.length),
      u32(content.length),
      u16(nameBytes.length),
      u16(0),
    ]);
    const local = Buffer.concat([u32(0x04034b50), common, nameBytes, data]);
    centrals.push(Buffer.concat([u32(0x02014b50), u16(20), common, u16(0), u16(0), u16(0), u32(0), u32(offset), nameBytes]));
    locals.push(local);
    offset += local.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(dir.length), u32(offset), u16(0)]);
  return Buffer.concat([...locals, dir, end]);
}

export function buildTestApk({ packageName = 'com.example.app', versionCode = 1, versionName = '1.0.0', label = 'Example', padding = 0 } = {}) {
  return zip([
    ['AndroidManifest.xml', binaryManifest({ packageName, versionCode, versionName, label })],
    ['classes.dex', Buffer.concat([Buffer.from('dex\n035\0'), Buffer.alloc(padding)])],
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, packageName, versionCode, versionName, label] = process.argv.slice(2);
  if (!out) {
    console.error('usage: build-test-apk.mjs out.apk [packageName] [versionCode] [versionName] [label]');
    process.exit(2);
  }
  writeFileSync(out, buildTestApk({ packageName, versionCode: versionCode ? Number(versionCode) : undefined, versionName, label }));
  console.log(`wrote ${out}`);
}
