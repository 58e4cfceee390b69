import { deflateSync } from 'node:zlib';

/**
 * A QR code of a short text (ISO/IEC 18004: byte mode, error correction level M, versions 1 to
 * 10, mask 0), drawn as a PNG: what the sandbox answers for the QR image Adyen's web library shows
 * beside a `qrCode` action, so that a phone can scan the sandbox's app page. Written here because
 * the project takes no image dependency for one picture.
 */

/** Per version (index 0 is version 1), at level M: error correction codewords per block, and the blocks' data codewords. */
const BLOCKS: ReadonlyArray<{ ec: number; data: number[] }> = [
  { ec: 10, data: [16] },
  { ec: 16, data: [28] },
  { ec: 26, data: [44] },
  { ec: 18, data: [32, 32] },
  { ec: 24, data: [43, 43] },
  { ec: 16, data: [27, 27, 27, 27] },
  { ec: 18, data: [31, 31, 31, 31] },
  { ec: 22, data: [38, 38, 39, 39] },
  { ec: 22, data: [36, 36, 36, 37, 37] },
  { ec: 26, data: [43, 43, 43, 43, 44] },
];

/** Per version, the rows and columns of the alignment patterns' centres. */
const ALIGNMENT: ReadonlyArray<number[]> = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

/** The longest text (in UTF-8 bytes) a code of this size holds. */
export const QR_MAX_BYTES = 213;

/** Multiplication in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1. */
function gfMultiply(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

/** The Reed-Solomon generator polynomial of a degree, highest coefficient left out. */
function generator(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j]!, root);
      if (j + 1 < degree) result[j] = result[j]! ^ result[j + 1]!;
    }
    root = gfMultiply(root, 2);
  }
  return result;
}

/** The error correction codewords of a block. */
function errorCorrection(data: number[], divisor: number[]): number[] {
  const result = new Array<number>(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift()!;
    result.push(0);
    divisor.forEach((coefficient, i) => (result[i] = result[i]! ^ gfMultiply(coefficient, factor)));
  }
  return result;
}

/** The text's codewords, data and error correction interleaved by block, for a version. */
function codewords(bytes: Buffer, version: number): number[] {
  const { ec, data: sizes } = BLOCKS[version - 1]!;
  const capacity = sizes.reduce((a, b) => a + b, 0);
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);
  const divisor = generator(ec);
  const blocks: number[][] = [];
  let offset = 0;
  for (const size of sizes) {
    blocks.push(data.slice(offset, offset + size));
    offset += size;
  }
  const corrections = blocks.map((block) => errorCorrection(block, divisor));
  const result: number[] = [];
  for (let i = 0; i < Math.max(...sizes); i++) for (const block of blocks) if (i < block.length) result.push(block[i]!);
  for (let i = 0; i < ec; i++) for (const correction of corrections) result.push(correction[i]!);
  return result;
}

/** The smallest version that holds the text; undefined when none up to version 10 does. */
function versionFor(length: number): number | undefined {
  const index = BLOCKS.findIndex(({ data }, i) => 4 + (i + 1 < 10 ? 8 : 16) + length * 8 <= data.reduce((a, b) => a + b, 0) * 8);
  return index < 0 ? undefined : index + 1;
}

/** The modules of the text's QR code, dark as true, row by row; undefined when the text is too long. */
export function qrModules(text: string): boolean[][] | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const version = versionFor(bytes.length);
  if (version === undefined) return undefined;
  const size = 17 + 4 * version;
  const dark = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const reserved = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const set = (x: number, y: number, value: boolean) => {
    dark[y]![x] = value;
    reserved[y]![x] = true;
  };
  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [
    [3, 3],
    [size - 4, 3],
    [3, size - 4],
  ] as const) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const distance = Math.max(Math.abs(dx), Math.abs(dy));
        if (cx + dx >= 0 && cx + dx < size && cy + dy >= 0 && cy + dy < size) set(cx + dx, cy + dy, distance !== 2 && distance !== 4);
      }
    }
  }
  const centres = ALIGNMENT[version - 1]!;
  const last = centres.length - 1;
  centres.forEach((cy, i) =>
    centres.forEach((cx, j) => {
      // The three corners the finder patterns take have none.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }),
  );
  // Format information: level M (00) and mask 0, with its BCH code and the fixed pattern.
  const format = 0b00_000;
  let remainder = format;
  for (let i = 0; i < 10; i++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  const formatBits = ((format << 10) | remainder) ^ 0x5412;
  const bit = (value: number, i: number) => ((value >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) set(8, i, bit(formatBits, i));
  set(8, 7, bit(formatBits, 6));
  set(8, 8, bit(formatBits, 7));
  set(7, 8, bit(formatBits, 8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(formatBits, i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(formatBits, i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(formatBits, i));
  set(8, size - 8, true);
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const versionBits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, bit(versionBits, i));
      set(b, a, bit(versionBits, i));
    }
  }
  // The codewords, two columns at a time from the right, up and down in turn; mask 0 inverts where (x + y) is even.
  const words = codewords(bytes, version);
  let index = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? size - 1 - step : step;
        if (reserved[y]![x]) continue;
        const value = index < words.length * 8 && bit(words[index >>> 3]!, 7 - (index & 7));
        index++;
        dark[y]![x] = value !== ((x + y) % 2 === 0);
      }
    }
  }
  return dark;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The QR code as a greyscale PNG, `scale` pixels a module, with the four-module quiet zone around it. */
export function qrPng(modules: boolean[][], scale = 6): Buffer {
  const quiet = 4;
  const width = (modules.length + 2 * quiet) * scale;
  const rows: Buffer[] = [];
  for (let y = 0; y < width; y++) {
    const row = Buffer.alloc(1 + width, 0xff);
    row[0] = 0;
    const my = Math.floor(y / scale) - quiet;
    for (let x = 0; x < width; x++) {
      const mx = Math.floor(x / scale) - quiet;
      if (modules[my]?.[mx] === true) row[1 + x] = 0;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
