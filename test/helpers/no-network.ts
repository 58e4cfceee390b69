// Tests may only reach this machine: any connection to another address fails loudly.
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/;
// eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with its `this` below
const original = net.Socket.prototype.connect;

net.Socket.prototype.connect = function guarded(this: net.Socket, ...args: unknown[]) {
  const first = args[0] as { host?: string; path?: string } | number | string | unknown[];
  const options = Array.isArray(first) ? (first[0] as { host?: string; path?: string }) : first;
  const host =
    typeof options === 'object' && options !== null
      ? options.path
        ? 'localhost'
        : (options.host ?? 'localhost')
      : typeof args[1] === 'string'
        ? args[1]
        : 'localhost';
  if (typeof options === 'string') return (original as (...a: unknown[]) => net.Socket).apply(this, args); // unix socket path
  if (!LOOPBACK.test(host)) throw new Error(`Test tried to reach ${host}: only loopback is allowed in tests`);
  return (original as (...a: unknown[]) => net.Socket).apply(this, args);
};
