/**
 * Remembered query results on SQLite (server/store/engines/sqlite-statements.ts): a list page of
 * a remembered table is answered from memory until its table is written. The memory is bounded
 * in rows as well as entries, so that a client paging through a large fleet cannot grow it
 * without limit. What the tests observe: a row changed behind the cache's back (by a second
 * connection it does not hear of) shows only once the remembered page was let go.
 */
import { describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedStatements, RESULT_CACHE_ROWS } from '../../server/store/engines/sqlite-statements.js';

const PAGE = 100;

function fleet(pages: number) {
  const path = join(mkdtempSync(join(tmpdir(), 'remembered-')), 'db.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE apps (page INTEGER NOT NULL, version INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO apps (page, version) VALUES (?, 1)');
  db.transaction(() => {
    for (let page = 0; page < pages; page++) for (let i = 0; i < PAGE; i++) insert.run(page);
  })();
  let version = 0;
  const statements = cachedStatements(
    db,
    () => ['apps'],
    () => undefined,
    { tables: new Set(['apps']), version: () => version, lastWriteOf: () => version },
  );
  const page = (n: number) => statements.prepare('SELECT version FROM apps WHERE page = ?').all([n]) as Array<{ version: number }>;
  const from = (n: number) => statements.prepare('SELECT version FROM apps WHERE page >= ?').all([n]) as Array<{ version: number }>;
  // Another connection: its writes are not counted, so only a read that goes to the file sees them.
  const behind = new Database(path);
  const changeBehind = (n: number) => behind.prepare('UPDATE apps SET version = version + 1 WHERE page = ?').run(n);
  return { page, from, changeBehind, written: () => version++, close: () => (db.close(), behind.close()) };
}

describe('remembered results', () => {
  test('When a page was read and its table was not written, then the same page comes from memory; once written, from the file', () => {
    const f = fleet(2);
    expect(f.page(0)[0]).toEqual({ version: 1 });
    f.changeBehind(0);
    expect(f.page(0)[0]).toEqual({ version: 1 });
    f.written();
    expect(f.page(0)[0]).toEqual({ version: 2 });
    f.close();
  });

  test('When more rows than the bound are paged through, then the first page read is let go and read again from the file', () => {
    const pages = RESULT_CACHE_ROWS / PAGE + 1;
    const f = fleet(pages);
    expect(f.page(0)).toHaveLength(PAGE);
    f.changeBehind(0);
    // Pages 0 to pages - 2 hold exactly the bound: page 0 is still remembered.
    for (let n = 1; n < pages - 1; n++) f.page(n);
    expect(f.page(0)[0]).toEqual({ version: 1 });
    // One page more: the oldest, page 0, is let go.
    f.page(pages - 1);
    expect(f.page(0)[0]).toEqual({ version: 2 });
    f.close();
  });

  test('When one result alone is larger than the bound, then it is not kept and the pages remembered before stay', () => {
    const pages = RESULT_CACHE_ROWS / PAGE + 1;
    const f = fleet(pages);
    expect(f.from(pages - 1)).toHaveLength(PAGE);
    f.changeBehind(pages - 1);
    expect(f.from(0)).toHaveLength(pages * PAGE);
    // The last page's result is still the remembered one; the whole fleet is read from the file each time.
    expect(f.from(pages - 1)[0]).toEqual({ version: 1 });
    f.changeBehind(0);
    expect(f.from(0)[0]).toEqual({ version: 2 });
    f.close();
  });
});
