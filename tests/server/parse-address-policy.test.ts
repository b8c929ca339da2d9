import { describe, expect, it } from 'vitest';
import { blockedAddressReason, isBlockedAddress } from '../../server/services/parse/index.js';

describe('address policy of the page fetcher', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved/broadcast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local (private)'],
    ['fdff:ffff::1', 'unique local (private)'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local (cloud metadata)'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['64:ff9b::192.168.0.1', 'NAT64 private'],
    ['2002:a00:1::', '6to4 private'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::',
  ])('allows the public address %s', (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });

  it('refuses strings that are not IP addresses', () => {
    for (const value of ['localhost', '1.2.3', '999.1.1.1', '::ffff:1.2.3', 'gggg::1', '']) {
      expect(isBlockedAddress(value)).toBe(true);
    }
  });
});
