import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { Commands } from '../../server/kernel/idempotency.js';
import { errorHandler } from '../../server/kernel/http/error-handler.js';
import { createLogger } from '../../server/kernel/logger.js';
import { SqliteStore } from '../../server/store/engines/sqlite.js';
import { join } from 'node:path';
import type { Server } from 'node:http';

/** A command whose work waits until the test releases it, to hold a request in flight. */
let release: () => void = () => undefined;
let runs = 0;
let server: Server;
let url: string;
let store: SqliteStore;

beforeAll(async () => {
  store = new SqliteStore({ path: ':memory:', synchronous: 'NORMAL', migrationsDir: join(process.cwd(), 'server/store/migrations/sqlite') });
  const commands = new Commands(store, () => new Date());
  const app = express();
  app.use(express.json());
  app.use((_req, res, next) => {
    res.locals.caller = { credential: { id: 'S2-C1', companyId: 'C1' } };
    next();
  });
  app.post(
    '/work',
    commands.handler(201, async () => {
      runs += 1;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { done: runs };
    }),
  );
  app.use(errorHandler(createLogger('silent'), 1000));
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/work`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

const send = () => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'same' }, body: '{"a":1}' });

describe('Commands (idempotent command runner)', () => {
  test('When a duplicate arrives while the first is still running, then it gets 422 code 704, and after the first finishes a repeat replays it', async () => {
    const first = send();
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const duplicate = await send();
    expect(duplicate.status).toBe(422);
    expect(await duplicate.json()).toMatchObject({ errorCode: '704' });
    release();
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual({ done: 1 });
    expect(runs).toBe(1);
  });
});
