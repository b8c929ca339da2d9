import { isIPv4, isIPv6 } from 'node:net';

// Which resolved addresses the page fetcher may connect to. Anything that reaches this machine,
// the local network, the cloud metadata service or a reserved range is refused; an IPv6 address
// that embeds an IPv4 one (mapped, NAT64, 6to4) is judged by the IPv4 address inside it.

interface Range {
  bytes: number[];
  bits: number;
  why: string;
}

const range = (address: string, bits: number, why: string): Range => ({ bytes: toBytes(address)!, bits, why });

const IPV4_BLOCKED: Range[] = [
  range('0.0.0.0', 8, 'unspecified ("this network")'),
  range('10.0.0.0', 8, 'private'),
  range('100.64.0.0', 10, 'carrier-grade NAT'),
  range('127.0.0.0', 8, 'loopback'),
  range('169.254.0.0', 16, 'link-local (cloud metadata)'),
  range('172.16.0.0', 12, 'private'),
  range('192.0.0.0', 24, 'IETF protocol assignment'),
  range('192.0.2.0', 24, 'documentation'),
  range('192.88.99.0', 24, '6to4 relay'),
  range('192.168.0.0', 16, 'private'),
  range('198.18.0.0', 15, 'benchmarking'),
  range('198.51.100.0', 24, 'documentation'),
  range('203.0.113.0', 24, 'documentation'),
  range('224.0.0.0', 4, 'multicast'),
  range('240.0.0.0', 4, 'reserved/broadcast'),
];

const IPV6_BLOCKED: Range[] = [
  range('::', 128, 'unspecified'),
  range('::1', 128, 'loopback'),
  range('::', 96, 'IPv4-compatible (deprecated)'),
  range('64:ff9b:1::', 48, 'local NAT64'),
  range('100::', 64, 'discard'),
  range('2001::', 32, 'Teredo'),
  range('2001:db8::', 32, 'documentation'),
  range('fc00::', 7, 'unique local (private)'),
  range('fe80::', 10, 'link-local'),
  range('fec0::', 10, 'site-local'),
  range('ff00::', 8, 'multicast'),
];

const IPV4_MAPPED = range('::ffff:0:0', 96, 'IPv4-mapped');
const NAT64 = range('64:ff9b::', 96, 'NAT64');
const SIX_TO_FOUR = range('2002::', 16, '6to4');

/**
 * Why the address must not be fetched ("loopback", "private", ...), or null when it is a public
 * unicast address. Strings that are not IP addresses are refused too.
 */
export function blockedAddressReason(address: string): string | null {
  const bare = stripZone(address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address);
  const bytes = toBytes(bare);
  if (!bytes) return 'not an IP address';
  if (bytes.length === 4) return matchRange(bytes, IPV4_BLOCKED);

  if (inRange(bytes, IPV4_MAPPED)) return embedded(bytes.slice(12), 'IPv4-mapped');
  if (inRange(bytes, NAT64)) return embedded(bytes.slice(12), 'NAT64');
  if (inRange(bytes, SIX_TO_FOUR)) return embedded(bytes.slice(2, 6), '6to4');
  return matchRange(bytes, IPV6_BLOCKED);
}

export function isBlockedAddress(address: string): boolean {
  return blockedAddressReason(address) !== null;
}

function embedded(v4: number[], how: string): string | null {
  const reason = matchRange(v4, IPV4_BLOCKED);
  return reason ? `${how} ${reason}` : null;
}

function matchRange(bytes: number[], ranges: Range[]): string | null {
  for (const r of ranges) if (inRange(bytes, r)) return r.why;
  return null;
}

function inRange(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  let bits = r.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (r.bytes[i]! & mask)) return false;
  }
  return true;
}

function stripZone(address: string): string {
  const percent = address.indexOf('%');
  return percent >= 0 ? address.slice(0, percent) : address;
}

/** 4 bytes for IPv4, 16 for IPv6, null for anything else. */
function toBytes(address: string): number[] | null {
  if (isIPv4(address)) return address.split('.').map(Number);
  if (!isIPv6(address)) return null;
  let head = address;
  let tailV4: number[] = [];
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return null;
    tailV4 = tail.split('.').map(Number);
    // "::ffff:1.2.3.4" is read as "::ffff:0:0" and the last four bytes replaced afterwards
    head = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(halves[0]!);
  const right = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...right];
  const bytes: number[] = [];
  for (const group of groups) {
    if (!Number.isInteger(group) || group < 0 || group > 0xffff) return null;
    bytes.push(group >> 8, group & 0xff);
  }
  if (tailV4.length) bytes.splice(12, 4, ...tailV4);
  return bytes.length === 16 ? bytes : null;
}
