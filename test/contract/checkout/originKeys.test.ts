import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const keys = (originDomains: string[]) => server.checkout.POST('/originKeys', { body: { originDomains } });

describe('POST /originKeys', () => {
  test('When two origins are asked for, then each gets its own stable origin key', async () => {
    const { data } = await keys(['https://www.example.com', 'http://localhost:3000']);
    expect(Object.keys(data!.originKeys!)).toEqual(['https://www.example.com', 'http://localhost:3000']);
    expect(data!.originKeys!['https://www.example.com']).toMatch(/^pub\.v2\.\d{16}\.aHR0cHM6Ly93d3cuZXhhbXBsZS5jb20\.[\w-]+$/);
    const again = await keys(['https://www.example.com']);
    expect(again.data!.originKeys!['https://www.example.com']).toBe(data!.originKeys!['https://www.example.com']);
  });

  test.each([['https://www.example.com/path'], ['ftp://example.com'], ['www.example.com'], ['https://user@example.com']])(
    'When the origin is %s, then the answer is 422 naming it',
    async (origin) => {
      const { error } = await keys(['https://ok.example.com', origin]);
      expect(error).toMatchObject({ status: 422, message: expect.stringContaining("'originDomains.1'") });
    },
  );
});
