import { envSchema } from './config.js';
import { REMOVED_NAMES } from './config/removed.js';

/**
 * Every variable name this process reads (as the process entry reads them; tests' own are not
 * listed), OpenTelemetry's among them: the configuration's tracing section names those the SDK
 * reads itself, so that one of them is never taken for a misspelling.
 */
export const KNOWN_VARIABLES: ReadonlySet<string> = new Set(Object.keys(envSchema.shape));

/**
 * Names Kubernetes gives every pod for each service of its namespace (`<SERVICE>_SERVICE_HOST`,
 * `<SERVICE>_PORT_4000_TCP_ADDR`, ..., and `<SERVICE>_PORT=tcp://…`): a service named `backend`
 * or `feed` must not read as a misspelt BACKEND_ or FEED_ setting.
 */
const SERVICE_LINK = /_(?:SERVICE_HOST|SERVICE_PORT(?:_\w+)?|PORT_\d+_(?:TCP|UDP|SCTP)(?:_(?:PROTO|PORT|ADDR))?)$/;
const SERVICE_LINK_PORT = { name: /_PORT$/, value: /^(?:tcp|udp|sctp):\/\//i };
const isServiceLink = (name: string, value: string) =>
  SERVICE_LINK.test(name) || (SERVICE_LINK_PORT.name.test(name) && SERVICE_LINK_PORT.value.test(value));

/** Units a duration or size name ends with; a name that differs from a known one only there is a near miss. */
const UNIT = /_(?:MS|MILLIS|MILLISECONDS|S|SEC|SECS|SECONDS|BYTES|KB|MB)$/;

/**
 * Prefixes shared by several of this service's own settings: an unknown name under one of them
 * is meant for this service. OTEL_ is left out: the SDK reads more standard names than any list.
 */
const FAMILY_MIN_MEMBERS = 4;

function families(known: Iterable<string>): ReadonlyMap<string, string[]> {
  const byPrefix = new Map<string, string[]>();
  for (const name of known) {
    const cut = name.indexOf('_');
    if (cut <= 0 || name.startsWith('OTEL_')) continue;
    const prefix = name.slice(0, cut + 1);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
  }
  for (const [prefix, members] of byPrefix) if (members.length < FAMILY_MIN_MEMBERS) byPrefix.delete(prefix);
  return byPrefix;
}

/** Edit distance with transpositions (optimal string alignment), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** How many edits a name of this length may be from a known one and still be a misspelling of it. */
const allowedEdits = (length: number) => (length >= 10 ? 2 : length >= 5 ? 1 : 0);

export interface NearMiss {
  /** The variable as set, which nothing reads. */
  name: string;
  /** The known variable it most likely meant. */
  meant: string;
  /** How it is near: the same name in other letters' case, a few letters off, another unit, or a family's prefix (then `meant` is the family's closest). */
  how: 'case' | 'spelling' | 'unit' | 'family';
}

/**
 * Variables set in the environment that this process does not read but that look meant for it: a
 * known name in other letter case, one or two letters off, without (or with another) unit suffix,
 * or under the prefix of a family of its settings (BACKEND_, FEED_, MAX_, SUBSCRIPTION_). Anything
 * else (PATH, HOME, HOSTNAME, a Kubernetes service link, another program's settings) is not looked at.
 */
export function nearMisses(env: Record<string, string | undefined>, known: ReadonlySet<string> = KNOWN_VARIABLES): NearMiss[] {
  const found: NearMiss[] = [];
  const byPrefix = families(known);
  const knownList = [...known];
  for (const [name, value] of Object.entries(env)) {
    // A removed setting has warnings (or a refusal) of its own (config/removed.ts).
    if (value === undefined || known.has(name) || REMOVED_NAMES.has(name)) continue;
    const upper = name.toUpperCase();
    if (isServiceLink(upper, value)) continue;
    if (known.has(upper)) {
      found.push({ name, meant: upper, how: 'case' });
      continue;
    }
    const base = upper.replace(UNIT, '');
    const unit = knownList.find((k) => k.replace(UNIT, '') === base);
    if (unit) {
      found.push({ name, meant: unit, how: 'unit' });
      continue;
    }
    const limit = allowedEdits(upper.length);
    let best = limit + 1;
    let spelling: string | undefined;
    for (const k of knownList) {
      const d = editDistance(upper, k, limit);
      if (d < best) [best, spelling] = [d, k];
    }
    if (spelling) {
      found.push({ name, meant: spelling, how: 'spelling' });
      continue;
    }
    const cut = upper.indexOf('_');
    const members = cut > 0 ? byPrefix.get(upper.slice(0, cut + 1)) : undefined;
    if (members) found.push({ name, meant: members.reduce((a, b) => (editDistance(upper, a) <= editDistance(upper, b) ? a : b)), how: 'family' });
  }
  return found;
}

/** The warning for one near miss: names only, never a value (it may be a secret). */
export function describeNearMiss(miss: NearMiss): string {
  const prefix = miss.meant.slice(0, miss.meant.indexOf('_') + 1);
  return miss.how === 'family'
    ? `${miss.name} is not a setting of this service and is ignored: no ${prefix} variable has that name (the closest is ${miss.meant})`
    : `${miss.name} is not a setting of this service and is ignored: did you mean ${miss.meant}?`;
}
