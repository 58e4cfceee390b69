/**
 * The sandbox's QR code drawing (a phone scans it to open the sandbox's app page): the parts a
 * scanner finds first, and the format information a scanner reads to decode the rest.
 */
import { describe, expect, test } from '@jest/globals';
import { inflateSync } from 'node:zlib';
import { QR_MAX_BYTES, qrModules, qrPng } from '../../server/checkout/hosted-assets/qr-code.js';

const APP_PAGE = 'http://127.0.0.1:8080/hosted/bcmc-mobile/2S78ZFTZTBXZWUYN';

/** The 15 format bits read around the top-left finder, level and mask in the top five after unmasking. */
function formatOf(modules: boolean[][]): { level: number; mask: number } {
  const at = (x: number, y: number): number => (modules[y]![x] ? 1 : 0);
  const cells = [0, 1, 2, 3, 4, 5, 7, 8].map((y) => at(8, y)).concat([7, 5, 4, 3, 2, 1, 0].map((x) => at(x, 8)));
  const bits = cells.reduce((value, cell, i) => value | (cell << i), 0) ^ 0x5412;
  return { level: bits >>> 13, mask: (bits >>> 10) & 0b111 };
}

describe('QR codes of the sandbox', () => {
  test("When the app page's address is drawn, then the code is the smallest that holds it at level M (version 4, 33 modules)", () => {
    const modules = qrModules(APP_PAGE)!;

    expect(modules).toHaveLength(33);
    expect(formatOf(modules)).toEqual({ level: 0b00, mask: 0 });
  });

  test('When a code is drawn, then its three finder patterns, timing lines and dark module are where scanners look', () => {
    const modules = qrModules(APP_PAGE)!;
    const size = modules.length;
    const finder = (x0: number, y0: number) =>
      Array.from({ length: 7 }, (_, y) =>
        Array.from({ length: 7 }, (_, x) => modules[y0 + y]![x0 + x]!)
          .map((dark) => (dark ? '#' : '.'))
          .join(''),
      );
    const expected = ['#######', '#.....#', '#.###.#', '#.###.#', '#.###.#', '#.....#', '#######'];

    expect(finder(0, 0)).toEqual(expected);
    expect(finder(size - 7, 0)).toEqual(expected);
    expect(finder(0, size - 7)).toEqual(expected);
    expect(modules[6]!.slice(8, size - 8)).toEqual(Array.from({ length: size - 16 }, (_, i) => i % 2 === 0));
    expect(modules[size - 8]![8]).toBe(true);
  });

  test('When the text is longer than the largest code drawn holds, then there is no code', () => {
    expect(qrModules('x'.repeat(QR_MAX_BYTES))).toHaveLength(57);
    expect(qrModules('x'.repeat(QR_MAX_BYTES + 1))).toBeUndefined();
  });

  test('When a code is drawn as a PNG, then the picture is the code with a four-module quiet zone, black on white', () => {
    const modules = qrModules('hello')!;
    const png = qrPng(modules, 2);

    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const width = png.readUInt32BE(16);
    expect(width).toBe((21 + 8) * 2);
    const idat = png.indexOf('IDAT');
    const pixels = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    const pixel = (x: number, y: number) => pixels[y * (width + 1) + 1 + x];
    expect(pixel(0, 0)).toBe(0xff);
    expect(pixel(8, 8)).toBe(0);
  });
});
