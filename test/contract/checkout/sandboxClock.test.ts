import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

describe('GET /sandbox/clock and POST /sandbox/clock/advance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  test('When the clock is advanced, then it reports the new time and offset and keeps them', async () => {
    const before = await server.checkout.GET('/sandbox/clock');
    expect(before.data?.offsetSeconds).toBe(0);
    const { data } = await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 86_400 } });
    expect(data?.offsetSeconds).toBe(86_400);
    expect(Date.parse(data!.now) - Date.parse(before.data!.now)).toBeGreaterThanOrEqual(86_400_000);
    const again = await server.checkout.GET('/sandbox/clock');
    expect(again.data?.offsetSeconds).toBe(86_400);
  });

  test('When the clock is asked to move back, then the answer is 422 and it does not move', async () => {
    const { response } = await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: -10 } });
    expect(response.status).toBe(422);
  });
});

describe('Sandbox operations in production mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ mode: 'production' });
  });
  afterAll(() => server.stop());

  test('When the clock is read or advanced in production mode, then the answer is 404', async () => {
    expect((await server.checkout.GET('/sandbox/clock')).response.status).toBe(404);
    expect((await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 10 } })).response.status).toBe(404);
  });
});
