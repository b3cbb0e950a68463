import { isIP } from 'node:net';

/**
 * Which range a resolved address falls in, when it is one an outbound request on a user's behalf must not
 * reach: the machine itself, private networks, link-local and cloud metadata addresses, multicast and
 * reserved space. IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by it.
 * Returns the rule's name, or null for a public address.
 */
export function forbiddenRange(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return ipv4Range(parseIpv4(address));
  if (family === 6) return ipv6Range(parseIpv6(address));
  return 'not an IP address';
}

type V4Rule = [base: number, bits: number, rule: string];

const V4_RULES: V4Rule[] = [
  [ipv4('169.254.169.254'), 32, 'cloud metadata'],
  [ipv4('100.100.100.200'), 32, 'cloud metadata'],
  [ipv4('0.0.0.0'), 8, 'unspecified'],
  [ipv4('127.0.0.0'), 8, 'loopback'],
  [ipv4('10.0.0.0'), 8, 'private'],
  [ipv4('172.16.0.0'), 12, 'private'],
  [ipv4('192.168.0.0'), 16, 'private'],
  [ipv4('100.64.0.0'), 10, 'shared address space (carrier-grade NAT)'],
  [ipv4('169.254.0.0'), 16, 'link-local'],
  [ipv4('192.0.0.0'), 24, 'reserved (IETF protocol assignments)'],
  [ipv4('192.0.2.0'), 24, 'reserved (documentation)'],
  [ipv4('198.51.100.0'), 24, 'reserved (documentation)'],
  [ipv4('203.0.113.0'), 24, 'reserved (documentation)'],
  [ipv4('198.18.0.0'), 15, 'reserved (benchmarking)'],
  [ipv4('224.0.0.0'), 4, 'multicast'],
  [ipv4('240.0.0.0'), 4, 'reserved'],
];

function ipv4(text: string): number {
  return parseIpv4(text);
}

function parseIpv4(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv4Range(n: number): string | null {
  for (const [base, bits, rule] of V4_RULES) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return rule;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail allowed). */
function parseIpv6(text: string): number[] {
  let address = text.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const n = parseIpv4(dotted[1]!);
    address = `${address.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((g) => Number.parseInt(g, 16));
}

function ipv6Range(g: number[]): string | null {
  const embedded = (hi: number, lo: number) => ipv4Range(hi * 65536 + lo);
  const allZero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (allZero(0, 8)) return 'unspecified';
  if (allZero(0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64): the IPv4 address decides.
  if (allZero(0, 5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!);
  if (allZero(0, 6)) return embedded(g[6]!, g[7]!) ?? 'reserved (IPv4-compatible)';
  if (g[0] === 0x64 && g[1] === 0xff9b && allZero(2, 6)) return embedded(g[6]!, g[7]!);
  // 6to4 (2002:a.b.c.d::/48) carries the IPv4 address of its relay.
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!);
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && allZero(2, 7) && g[7] === 0x254) return 'cloud metadata';
  if ((g[0]! & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'reserved (site-local)';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved (documentation)';
  if (g[0] === 0x0100 && allZero(1, 4)) return 'reserved (discard)';
  return null;
}
