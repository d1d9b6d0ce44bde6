import { BlockList, isIP } from 'node:net';

/**
 * Where the service may deliver webhooks. Deployed: `https://` URLs whose host resolves only to
 * public addresses — never private, loopback, link-local (the cloud metadata service sits there),
 * carrier-grade NAT, multicast or reserved ranges, in IPv4 or IPv6 (IPv4-mapped included). The
 * check runs at registration and again at each delivery, since a name can be pointed elsewhere
 * afterwards. Ports: 443 or from 1024 up (never a well-known port of some other service). Local
 * (`npm start`): also `http://localhost` and `http://127.0.0.1`, so a receiver on this machine can
 * be tried, on a port from 1024 up but not the service's own or its database's (`refusedPorts`),
 * so that the delivery log cannot be used to probe the service or the machine's system services.
 */
export type WebhookUrlPolicy = 'deployed' | 'local' | { local: { refusedPorts: readonly number[] } };
/** Every address a host name resolves to (DNS); `node:dns` deployed, anything in tests. */
export type ResolveHost = (host: string) => Promise<string[]>;

const MAX_URL_LENGTH = 2048;

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. the metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (::a.b.c.d)
  ['64:ff9b::', 96], // NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['3fff::', 20], // documentation (2024)
  ['fc00::', 7], // unique local, incl. the metadata service fd00:ec2::254
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** True for an address a webhook may be sent to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  // IPv4-mapped (::ffff:a.b.c.d, or as URLs write it, ::ffff:xxxx:xxxx): judged as the IPv4 address.
  // Only global unicast (2000::/3) is public at all; the ranges above are carved out of it.
  const firstWord = parseInt(address.split(':')[0] || '0', 16);
  const globalUnicast = (firstWord & 0xe000) === 0x2000;
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return isPublicAddress(dotted[1]!);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return globalUnicast && !blocked.check(address, 'ipv6');
}

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Whether `raw` may receive webhooks under `policy`. The URL is parsed by WHATWG rules first, so
 * `https://2130706433/` or `https://0x7f.1/` are judged as the 127.0.0.1 they are.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, resolve: ResolveHost): Promise<UrlVerdict> {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  // What is stored and sent to is the URL as written by WHATWG rules, where a character outside ASCII
  // is percent-encoded (up to 12 characters for one): the limit holds on that too.
  if (url.href.length > MAX_URL_LENGTH)
    return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters once encoded (${url.href.length}: each character outside ASCII takes 6 to 12)` };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  if (url.hash) return { ok: false, reason: 'must not have a fragment' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = policy !== 'deployed';
  const localReceiver = local && (host === 'localhost' || host === '127.0.0.1' || host === '::1');
  if (url.protocol !== 'https:' && !(localReceiver && url.protocol === 'http:')) {
    return { ok: false, reason: local ? 'must be https:// (or http://localhost locally)' : 'must be https://' };
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (localReceiver) {
    // Not a system service's port (below 1024), nor the service's own: else the delivery log tells which are open.
    if (port < 1024) return { ok: false, reason: 'must use a port from 1024 up locally' };
    const refused = typeof policy === 'object' ? policy.local.refusedPorts : [];
    if (refused.includes(port)) return { ok: false, reason: `must not use port ${port}: it is the service's own or its database's (${refused.join(', ')})` };
    return { ok: true, url: url.href };
  }
  if (port !== 443 && port < 1024) return { ok: false, reason: 'must use port 443 or a port from 1024 up' };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, reason: 'names a host that does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'names a host that does not resolve' };
  if (!addresses.every(isPublicAddress))
    return { ok: false, reason: 'must resolve to public addresses only (no private, loopback, link-local or metadata address)' };
  return { ok: true, url: url.href };
}
