import { quote } from '../text/received-value.js';

/**
 * Where the shared cache is (`CACHE_URL`): one Redis server (`redis://`, `rediss://`), the master
 * a group of Sentinels names (`redis+sentinel://`), or a Redis Cluster (`redis+cluster://`).
 *
 *   redis+sentinel://[user:password@]host1:26379,host2:26379,host3:26379/master-name[/db]
 *   redis+cluster://[user:password@]host1:6379,host2:6379,host3:6379
 *
 * The user and password are those of the Redis servers (masters, replicas, cluster nodes), as in
 * `redis://`; percent-encode any `@ : / ? #` in them. A host without a port takes the usual one:
 * 26379 for a Sentinel, 6379 for a Cluster node. A Cluster has only database 0.
 */

export interface RedisNodeAddress {
  host: string;
  port: number;
}

export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'sentinel'; masterName: string; sentinels: RedisNodeAddress[]; username?: string; password?: string; database?: number }
  | { kind: 'cluster'; nodes: RedisNodeAddress[]; username?: string; password?: string };

/** What every form looks like, for a value that is none of them. */
export const REDIS_URL_FORMS =
  'must be a redis:// or rediss:// URL (one server), redis+sentinel://host1:26379,host2:26379/master-name (Sentinel) or redis+cluster://host1:6379,host2:6379 (Cluster), such as redis://127.0.0.1:6379';

/** A problem with a configured URL, in words that never quote its credentials. */
export class RedisUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUrlError';
  }
}

/** One server: whatever follows the scheme is node-redis's to read. */
export const SINGLE_SERVER_URL = /^rediss?:/i;
const MULTI = /^redis\+(sentinel|cluster):\/\/(.*)$/is;
const TLS_MULTI = /^rediss\+(sentinel|cluster):\/\//i;
/** A host name (letters, digits, dots, hyphens, underscores), an IPv4 address, or an IPv6 one in brackets; then perhaps a port. */
const HOST = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?))(?::(\d{1,5}))?$/i;
const MAX_HOSTS = 64;

/**
 * The target a URL names. A `redis://` or `rediss://` URL is passed on whole (node-redis reads
 * it; the configuration checks it is a URL); the Sentinel and Cluster forms are read here, since
 * no URL parser takes a list of hosts.
 */
export function parseRedisUrl(value: string): RedisTarget {
  // Validated as a URL with the configuration (config/cache.ts); node-redis reads it.
  if (SINGLE_SERVER_URL.test(value)) return { kind: 'single', url: value };
  if (TLS_MULTI.test(value)) {
    throw new RedisUrlError('rediss+sentinel:// and rediss+cluster:// (TLS) are not supported: use redis+sentinel:// or redis+cluster:// on a private network, or one TLS endpoint with rediss://');
  }
  const multi = MULTI.exec(value);
  if (!multi) throw new RedisUrlError(REDIS_URL_FORMS);
  const kind = multi[1]!.toLowerCase() as 'sentinel' | 'cluster';
  let rest = multi[2]!;

  // The user info runs to the last "@": a password may hold one unencoded, hosts and names never do.
  let username: string | undefined;
  let password: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const info = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = info.indexOf(':');
    try {
      username = decodeURIComponent(colon >= 0 ? info.slice(0, colon) : info) || undefined;
      password = colon >= 0 ? decodeURIComponent(info.slice(colon + 1)) || undefined : undefined;
    } catch {
      throw new RedisUrlError('has a user or password with a stray "%": percent-encode "%" as %25');
    }
  }

  const end = rest.search(/[/?#]/);
  const hostList = end < 0 ? rest : rest.slice(0, end);
  const tail = end < 0 ? '' : rest.slice(end);
  const defaultPort = kind === 'sentinel' ? 26379 : 6379;
  const entries = hostList.split(',');
  if (hostList === '') {
    throw new RedisUrlError(
      kind === 'sentinel' ? 'names no Sentinel: list them as redis+sentinel://host1:26379,host2:26379/master-name' : 'names no node: list them as redis+cluster://host1:6379,host2:6379',
    );
  }
  if (entries.length > MAX_HOSTS) throw new RedisUrlError(`lists ${entries.length} hosts: at most ${MAX_HOSTS} are read`);
  const nodes = entries.map((entry) => {
    if (entry === '') throw new RedisUrlError('has an empty host in its list (two commas in a row, or one at an end)');
    const match = HOST.exec(entry.trim());
    if (!match) throw new RedisUrlError(`has ${quote(entry)} among its hosts: each must be host or host:port`);
    const port = match[3] === undefined ? defaultPort : Number(match[3]);
    if (port < 1 || port > 65535) throw new RedisUrlError(`has ${quote(entry)} among its hosts: a port is from 1 to 65535`);
    return { host: match[1] ?? match[2]!, port };
  });

  const hashAt = tail.indexOf('#');
  if (hashAt >= 0) throw new RedisUrlError('has a "#" fragment, which means nothing here: remove it (percent-encode a "#" in the password as %23)');
  const queryAt = tail.indexOf('?');
  const path = queryAt >= 0 ? tail.slice(0, queryAt) : tail;
  const query = queryAt >= 0 ? tail.slice(queryAt + 1) : undefined;

  if (kind === 'cluster') {
    if ((path !== '' && path !== '/') || query !== undefined) {
      throw new RedisUrlError('has something after its hosts: a Cluster URL is redis+cluster://host1:6379,host2:6379, and a Cluster has only database 0');
    }
    return { kind, nodes, ...(username ? { username } : {}), ...(password ? { password } : {}) };
  }

  if (query !== undefined) throw new RedisUrlError('has a query, which is not read: the database number goes after the master name, as in redis+sentinel://host1:26379/mymaster/2');
  const [rawName = '', rawDatabase, ...more] = path.replace(/^\//, '').split('/');
  if (more.length > 0) throw new RedisUrlError('has more after the master name and database: end it with /master-name or /master-name/<database>');
  let masterName: string;
  try {
    masterName = decodeURIComponent(rawName);
  } catch {
    throw new RedisUrlError('has a master name with a stray "%"');
  }
  if (masterName === '') throw new RedisUrlError('names no master: end it with the name the Sentinels monitor, as in redis+sentinel://host1:26379,host2:26379/mymaster');
  if (/\s/.test(masterName)) throw new RedisUrlError(`has ${quote(masterName)} as its master name: a name has no spaces`);
  let database: number | undefined;
  if (rawDatabase !== undefined) {
    if (!/^\d{1,9}$/.test(rawDatabase)) throw new RedisUrlError(`has ${quote(rawDatabase)} after the master name: that is the database, a whole number`);
    database = Number(rawDatabase);
  }
  return {
    kind,
    masterName,
    sentinels: nodes,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(database !== undefined ? { database } : {}),
  };
}

/** What is wrong with a configured URL, or undefined when it is fine. */
export function redisUrlProblem(value: string): string | undefined {
  try {
    parseRedisUrl(value);
    return undefined;
  } catch (error) {
    if (error instanceof RedisUrlError) return error.message;
    throw error;
  }
}
