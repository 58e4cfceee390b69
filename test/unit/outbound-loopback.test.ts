/**
 * The outbound guard's loopback rule (webhooks in sandbox mode): a host that names loopback needs
 * no allow-list entry and must resolve to loopback only; every other host keeps the allow-list and
 * the public-address rule.
 */
import { describe, expect, test } from '@jest/globals';
import { isLoopbackHost, vetDestination } from '../../server/kernel/outbound/guard.js';

describe('isLoopbackHost', () => {
  test.each([['localhost'], ['LOCALHOST'], ['127.0.0.1'], ['127.255.0.9'], ['::1'], ['[::1]'], ['::ffff:127.0.0.1']])(
    'When the host is %s, then it is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  test.each([['localhost.example.com'], ['10.0.0.1'], ['169.254.169.254'], ['::'], ['fe80::1'], ['::ffff:10.0.0.1'], ['128.0.0.1']])(
    'When the host is %s, then it is not loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('vetDestination with loopback allowed', () => {
  test.each([['http://127.0.0.1:4000/webhooks'], ['http://localhost:4000/webhooks'], ['http://[::1]:4000/webhooks']])(
    'When the destination is %s and the allow-list is empty, then it passes with a loopback address to connect to',
    async (url) => {
      const destination = await vetDestination(url, [], false, true);
      expect(['127.0.0.1', '::1']).toContain(destination.address);
    },
  );

  test.each([
    ['http://10.0.0.1/hooks', ['10.0.0.1'], 'private, loopback or link-local'],
    ['http://169.254.169.254/latest', ['169.254.169.254'], 'private, loopback or link-local'],
    ['http://10.0.0.1/hooks', [], 'allow-list'],
  ])('When the destination is %s (allow-list %j), then it is refused as before', async (url, allowList, reason) => {
    await expect(vetDestination(url, allowList, false, true)).rejects.toThrow(reason);
  });

  test('When loopback is not allowed, then 127.0.0.1 needs the allow-list and the private-network exemption, as before', async () => {
    await expect(vetDestination('http://127.0.0.1:4000/', [], false, false)).rejects.toThrow('allow-list');
    await expect(vetDestination('http://127.0.0.1:4000/', ['127.0.0.1'], false, false)).rejects.toThrow('private, loopback or link-local');
    expect((await vetDestination('http://127.0.0.1:4000/', ['127.0.0.1'], true, false)).address).toBe('127.0.0.1');
  });
});
