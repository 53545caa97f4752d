import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressReader, MAX_HOPS, parseTrustProxy } from '../../src/http/client-address.js';

/** What the reader looks at of a request: its TCP peer and its headers, as Node parsed them. */
const request = (remoteAddress: string, headers: Record<string, string | string[]> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it('reads off, a hop count, or names, addresses and CIDRs as Express reads `trust proxy`', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(parseTrustProxy(' loopback, 10.0.0.0/8 ,fd00::/8, 192.0.2.7 ')).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
  });

  it('refuses what would trust a client, or is no address, saying why', () => {
    expect(() => parseTrustProxy('true')).toThrow(/would trust every hop/);
    expect(() => parseTrustProxy('10.0.0.300')).toThrow(/invalid IP address: 10\.0\.0\.300.*expected addresses, CIDRs/);
    expect(() => parseTrustProxy('10.0.0.0/40')).toThrow(/invalid range on address/);
    expect(() => parseTrustProxy('100')).toThrow(`a hop count must be at most ${MAX_HOPS}`);
  });
});

describe('the client address of a request', () => {
  it('is the TCP peer when no proxy is trusted, whatever the headers say', () => {
    const address = clientAddressReader(false);
    expect(address(request('203.0.113.9', { 'x-forwarded-for': '198.51.100.1', forwarded: 'for=198.51.100.2' }))).toBe('203.0.113.9');
  });

  it('is read from X-Forwarded-For from the right, through trusted hops only', () => {
    const address = clientAddressReader(['loopback', '10.0.0.0/8']);
    // The load balancer (10.0.0.5) appended the client; what the client wrote before it is not believed.
    expect(address(request('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.5' }))).toBe('198.51.100.7');
    // Node reads a dual-stack socket's IPv4 peer as IPv4-mapped IPv6.
    expect(address(request('::ffff:127.0.0.1', { 'x-forwarded-for': '198.51.100.8' }))).toBe('198.51.100.8');
    // A peer that is not a trusted proxy: its header is ignored.
    expect(address(request('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.9');
    // A trusted proxy that sent no header: the proxy is the client.
    expect(address(request('127.0.0.1'))).toBe('127.0.0.1');
    // Repeated header lines count as one list, in order; a port some proxies add is dropped.
    expect(address(request('127.0.0.1', { 'x-forwarded-for': ['6.6.6.6', '198.51.100.9:51234'] }))).toBe('198.51.100.9');
  });

  it('counts hops when TRUST_PROXY is a number', () => {
    const twoHops = clientAddressReader(2);
    expect(twoHops(request('203.0.113.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 192.0.2.1' }))).toBe('198.51.100.7');
    expect(twoHops(request('203.0.113.1', { 'x-forwarded-for': '198.51.100.7' }))).toBe('198.51.100.7');
  });

  it('reads RFC 7239 Forwarded instead when the proxies write that, and then ignores X-Forwarded-For', () => {
    const address = clientAddressReader(['loopback'], 'forwarded');
    const headers = { forwarded: 'for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, for=127.0.0.1;by=127.0.0.1', 'x-forwarded-for': '198.51.100.1' };
    expect(address(request('127.0.0.1', headers))).toBe('2001:db8:cafe::17');
    expect(address(request('127.0.0.1', { forwarded: 'for=unknown' }))).toBe('unknown');
    expect(address(request('127.0.0.1', { forwarded: 'proto=https' }))).toBe('unknown');
  });

  it('stays bounded on hostile headers: megabytes, thousands of hops, an entry of 100 KB', () => {
    const address = clientAddressReader(['loopback']);
    // Thousands of trusted-looking hops: only the last MAX_HOPS are looked at.
    const hops = Array.from({ length: 20_000 }, (_, i) => `127.0.${(i >> 8) & 255}.${i & 255}`);
    const found = address(request('127.0.0.1', { 'x-forwarded-for': hops.join(', ') }));
    expect(found).toBe(hops[hops.length - MAX_HOPS]);
    // One entry of 100 KB: no address, and not kept whole.
    const huge = address(request('127.0.0.1', { 'x-forwarded-for': 'x'.repeat(100_000) }));
    expect(huge.length).toBeLessThanOrEqual(64);
    const forwarded = clientAddressReader(['loopback'], 'forwarded')(request('127.0.0.1', { forwarded: `for="${'y'.repeat(5_000_000)}"` }));
    expect(forwarded).toBe('unknown');
  });
});
