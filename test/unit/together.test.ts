/**
 * `together` (server/store/tx.ts) waits for writes a transaction asks for at once. A use case
 * relies on it to end only when none of its parts is still running: a part that went on after
 * another failed would write after its transaction was rolled back.
 */
import { describe, expect, test } from '@jest/globals';
import { together } from '../../server/store/tx.js';

const later = <T>(ms: number, value: T, log: string[]) =>
  new Promise<T>((resolve) =>
    setTimeout(() => {
      log.push(`done ${String(value)}`);
      resolve(value);
    }, ms),
  );

describe('together', () => {
  test('When every part succeeds, then the answers come back in the order the parts were given', async () => {
    const log: string[] = [];
    await expect(together([later(20, 'a', log), later(5, 2, log), Promise.resolve(true)])).resolves.toEqual(['a', 2, true]);
  });

  test('When one part fails early, then its error is thrown only after the slower parts have finished', async () => {
    const log: string[] = [];
    const outcome = together([later(30, 'slow', log), Promise.reject(new Error('first failure')), Promise.reject(new Error('second failure'))]).catch(
      (error: Error) => {
        log.push(`failed: ${error.message}`);
      },
    );
    await outcome;
    expect(log).toEqual(['done slow', 'failed: first failure']);
  });
});
