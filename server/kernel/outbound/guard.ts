import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses an outbound call may never reach: private, loopback, link-local, shared, multicast and reserved ranges. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 or ::1 (also written as an IPv4-mapped IPv6 address). */
export function isLoopbackAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return LOOPBACK.check(mapped, 'ipv4');
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** `localhost` or a loopback address, as a URL's host names it (brackets allowed). */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || isLoopbackAddress(name);
}

/** Whether `host` is on the list: exact names, or `*.example.org` for its subdomains. */
export function hostAllowed(host: string, allowed: string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((entry) => {
    const pattern = entry.toLowerCase();
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1 : name === pattern;
  });
}

/** The hosts a merchant account may call: its own list and the list for every account (`*`). */
export function allowListOf(allowList: Record<string, string[]>, merchantAccount: string): string[] {
  return [...(allowList[merchantAccount] ?? []), ...(allowList['*'] ?? [])];
}

export interface Destination {
  url: URL;
  /** The vetted address the connection must use, so that a second DNS answer cannot redirect it. */
  address: string;
  family: 4 | 6;
}

/** A destination the guard refuses; `reason` says why in words a caller can be shown. */
export class DestinationRefused extends Error {
  constructor(readonly reason: string) {
    super(`destination not allowed: ${reason}`);
  }
}

/**
 * Checks a destination before anything is sent (forward requests and webhooks alike): http(s)
 * only, no user info, on the allow-list, and resolving only to public addresses (unless
 * private networks are allowed, for tests). With `allowLoopback` (webhooks in sandbox mode), a
 * host that names loopback (`localhost`, 127.0.0.0/8, ::1) needs no allow-list entry, and must
 * resolve to loopback only. The address it returns is the one to connect to.
 */
export async function vetDestination(raw: string, allowList: string[], allowPrivate: boolean, allowLoopback = false): Promise<Destination> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefused(`'${raw}' is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new DestinationRefused(`the scheme ${url.protocol} is not http or https`);
  if (url.username || url.password) throw new DestinationRefused('user info in the URL is not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = allowLoopback && isLoopbackHost(host);
  if (!loopback && !hostAllowed(host, allowList)) throw new DestinationRefused(`${host} is not on the merchant account's allow-list`);
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new DestinationRefused(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new DestinationRefused(`${host} does not resolve`);
  if (loopback && !allowPrivate && !addresses.every((a) => isLoopbackAddress(a.address)))
    throw new DestinationRefused(`${host} resolves to an address outside loopback`);
  if (!loopback && !allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    throw new DestinationRefused(`${host} resolves to a private, loopback or link-local address`);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
