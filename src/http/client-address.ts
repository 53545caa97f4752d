import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/**
 * Who the client of a request is, behind load balancers and proxies.
 *
 * A proxy in front of the service is the TCP peer of every request: its address says nothing
 * about the client. It names the client in a header it appends to (`X-Forwarded-For`, or the
 * standard `Forwarded`), and a client can write that header too. So the header is read from the
 * right, one hop at a time, only as far as the hops are trusted (TRUST_PROXY, read as Express
 * reads its `trust proxy`): the first address that is not a trusted proxy is the client. With no
 * trusted proxy the header is never read.
 */

/** Which peers may name the client: none, the nearest `hops` of them, or those at these addresses (`loopback`, addresses, CIDRs). */
export type TrustProxy = false | number | string[];

/** The header the trusted proxies write; the other one is never read, as a client may send it through them untouched. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

export type ClientAddress = (req: IncomingMessage) => string;

/**
 * Hops looked at, at most, from the right: a header of thousands of trusted-looking hops costs no
 * more than this. A proxy chain is a few hops long.
 */
export const MAX_HOPS = 32;
/** Longer than any textual IPv6 address with a port and a zone: an entry beyond it is no address, and is not read whole. */
const MAX_ENTRY = 100;
/** The end of the header that MAX_HOPS entries can fill (a `Forwarded` element carries more than its address); the rest is never scanned. */
const MAX_SCAN = MAX_HOPS * MAX_ENTRY * 4;

/**
 * Reads a TRUST_PROXY value: `false`/`off`/`0` (the default: no proxy is trusted), a hop count,
 * or comma-separated names (`loopback`, `linklocal`, `uniquelocal`), addresses and CIDRs.
 * Throws a RangeError saying what is wrong.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (/^(false|off|none)$/i.test(text)) return false;
  if (/^true$/i.test(text)) {
    throw new RangeError('true would trust every hop, so the client could name any address it likes; give the number of proxies in front of the service, or their addresses (loopback, addresses, CIDRs)');
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new RangeError(`a hop count must be at most ${MAX_HOPS}`);
    return hops === 0 ? false : hops;
  }
  const list = text.split(',').map((item) => item.trim()).filter(Boolean);
  if (list.length === 0) throw new RangeError('must be false, a number of hops, or comma-separated addresses, CIDRs or loopback, linklocal, uniquelocal');
  try {
    proxyaddr.compile(list);
  } catch (error) {
    throw new RangeError(`${(error as Error).message}; expected addresses, CIDRs or loopback, linklocal, uniquelocal, comma-separated`);
  }
  return list;
}

/** The function that names the client of a request, for this trust setting; the same everywhere a client address is needed. */
export function clientAddressReader(trust: TrustProxy, header: ForwardedHeader = 'x-forwarded-for'): ClientAddress {
  if (trust === false) return peerAddress;
  const trusted: (address: string, hop: number) => boolean = typeof trust === 'number' ? (_address, hop) => hop < trust : proxyaddr.compile(trust);
  const entryAt = header === 'forwarded' ? forwardedFor : plainEntry;
  return function clientAddress(req) {
    let address = peerAddress(req);
    if (!trusted(address, 0)) return address;
    const raw = req.headers[header];
    // Node joins repeated X-Forwarded-For lines with ", "; `Forwarded` is not a list header to it.
    const whole = Array.isArray(raw) ? raw.join(', ') : raw;
    if (!whole) return address;
    const value = whole.length > MAX_SCAN ? whole.slice(whole.length - MAX_SCAN) : whole;
    let end = value.length;
    for (let hop = 1; hop <= MAX_HOPS && end > 0; hop++) {
      const start = value.lastIndexOf(',', end - 1) + 1;
      const entry = entryAt(value, start, end);
      if (entry === undefined) return address;
      address = entry;
      if (!trusted(address, hop)) return address;
      end = start - 1;
    }
    // Every hop looked at was trusted: the left-most of them is as near the client as is known.
    return address;
  };
}

function peerAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** One X-Forwarded-For entry, without the port some proxies add; undefined when it is empty. */
function plainEntry(value: string, start: number, end: number): string | undefined {
  if (end - start > MAX_ENTRY) return value.slice(start, start + 64).trim() || undefined;
  return withoutPort(value.slice(start, end).trim());
}

/** The `for=` node of one element of a `Forwarded` header (`for=192.0.2.60;proto=https`, `for="[2001:db8::1]:4711"`); `unknown` when it names none. */
function forwardedFor(value: string, start: number, end: number): string | undefined {
  if (end - start > MAX_ENTRY * 4) return 'unknown';
  const element = value.slice(start, end);
  const match = /(?:^|;)\s*for\s*=\s*("[^"]*"|[^;\s]*)/i.exec(element);
  if (!match) return element.trim() ? 'unknown' : undefined;
  const node = match[1]!.replace(/^"|"$/g, '');
  return withoutPort(node) ?? 'unknown';
}

function withoutPort(entry: string): string | undefined {
  if (!entry) return undefined;
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    return close > 1 ? entry.slice(1, close) : entry;
  }
  const colon = entry.indexOf(':');
  // An IPv4 address with a port; IPv6 addresses have more than one colon and are left whole.
  if (colon > 0 && colon === entry.lastIndexOf(':') && isIP(entry.slice(0, colon)) === 4) return entry.slice(0, colon);
  return entry;
}
