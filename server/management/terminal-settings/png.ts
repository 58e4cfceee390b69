import { crc32 } from 'node:zlib';

/** What a PNG file says about itself. */
export interface PngInfo {
  width: number;
  height: number;
  bytes: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bit depths each colour type allows (PNG specification, IHDR). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/**
 * Reads a PNG file's structure: the signature, an IHDR chunk first with valid fields, every chunk
 * whole with a correct CRC, at least one IDAT, and IEND last at the very end. Answers the image's
 * dimensions, or why the bytes are not a PNG file. The pixel data itself is not decoded.
 */
export function readPng(file: Buffer): PngInfo | string {
  if (file.length < SIGNATURE.length || !file.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return 'is not a PNG image (no PNG signature)';
  let offset = SIGNATURE.length;
  let info: PngInfo | undefined;
  let sawData = false;
  while (offset < file.length) {
    if (offset + 12 > file.length) return 'is not a whole PNG image (a chunk is cut off)';
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > file.length) return `is not a whole PNG image (chunk ${type} is cut off)`;
    if (crc32(file.subarray(offset + 4, offset + 8 + length)) !== file.readUInt32BE(offset + 8 + length))
      return `is not a valid PNG image (chunk ${type} fails its CRC)`;
    const data = file.subarray(offset + 8, offset + 8 + length);
    if (info === undefined) {
      if (type !== 'IHDR' || length !== 13) return 'is not a valid PNG image (IHDR must come first)';
      const [width, height, depth, colour, compression, filter, interlace] = [
        data.readUInt32BE(0),
        data.readUInt32BE(4),
        data[8]!,
        data[9]!,
        data[10]!,
        data[11]!,
        data[12]!,
      ];
      if (width === 0 || height === 0 || width > 2 ** 31 - 1 || height > 2 ** 31 - 1) return 'is not a valid PNG image (its dimensions are out of range)';
      if (!DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1)
        return 'is not a valid PNG image (its IHDR fields are invalid)';
      info = { width, height, bytes: file.length };
    } else if (type === 'IHDR') return 'is not a valid PNG image (two IHDR chunks)';
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') {
      if (end !== file.length) return 'is not a valid PNG image (bytes after IEND)';
      return sawData ? info : 'is not a valid PNG image (no image data)';
    }
    offset = end;
  }
  return 'is not a whole PNG image (no IEND chunk)';
}
