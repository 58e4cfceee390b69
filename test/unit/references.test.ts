import { describe, expect, jest, test } from '@jest/globals';
import { newPspReference } from '../../server/checkout/references.js';

describe('pspReferences', () => {
  test('When references are made, then each is 16 digits and capital letters and none repeats', () => {
    const made = Array.from({ length: 20_000 }, () => newPspReference());
    for (const ref of made) expect(ref).toMatch(/^[0-9A-Z]{16}$/);
    expect(new Set(made).size).toBe(made.length);
  });

  test('When 1 296 references are made in one millisecond, then they differ before their random part (distinct by construction, not by chance)', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 27, 12));
    try {
      const made = Array.from({ length: 36 ** 2 }, () => newPspReference());
      expect(new Set(made.map((r) => r.slice(0, 10))).size).toBe(made.length);
    } finally {
      now.mockRestore();
    }
  });

  test('When references are made in later milliseconds, then they sort after earlier ones (new keys land at the end of the index)', () => {
    const now = jest.spyOn(Date, 'now');
    try {
      const made: string[] = [];
      // One a millisecond across base-36 carries (…Z → …10), then a year later.
      const start = Date.UTC(2026, 10, 27, 12);
      for (const at of [...Array.from({ length: 80 }, (_, i) => start + i), start + 365 * 86_400_000]) {
        now.mockReturnValue(at);
        made.push(newPspReference());
      }
      expect([...made].sort()).toEqual(made);
      expect(new Set(made.map((r) => r.slice(0, 8))).size).toBe(made.length);
    } finally {
      now.mockRestore();
    }
  });
});
