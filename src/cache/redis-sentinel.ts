import type { RedisNodeAddress, RedisTarget } from './redis-url.js';
import {
  backoff,
  closeClient,
  CONNECT_TIMEOUT_MS,
  RedisNotConnectedError,
  socket,
  pingWithin,
  subscriptions,
  type NodeClient,
  type RedisCommands,
  type RedisConnection,
  type RedisConnectionOptions,
  type RedisModule,
} from './redis-common.js';

/**
 * The master a group of Sentinels names, on a plain node-redis client to it, as the Sentinel
 * documentation asks of clients: ask the Sentinels in turn for the master's address (the one
 * that answered first from then on), check with ROLE that it is the master, ask again whenever
 * the connection to it is lost, and hear of a failover at once from a Sentinel's
 * `+switch-master` messages. A new master gets a new client (with the subscriptions again); the
 * old one is dropped, its commands under way failing as on a lost connection.
 *
 * node-redis's own Sentinel client (`createSentinel`) holds every command while it looks for a
 * master, from the moment the master goes away until the failover ends, so each request would
 * wait out the failover; here a command fails at once while there is no master, as on one
 * server, and the callers' fallbacks apply for those seconds.
 */
export function sentinelConnection(
  redis: RedisModule,
  target: Extract<RedisTarget, { kind: 'sentinel' }>,
  { onError, onReady, subscriber }: RedisConnectionOptions,
): RedisConnection {
  const nodeOptions = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.database !== undefined ? { database: target.database } : {}),
    disableOfflineQueue: true,
  };
  // Asked in this order; the one that answers moves to the front.
  const sentinels: RedisNodeAddress[] = [...target.sentinels];
  const sentinelClient = (node: RedisNodeAddress) => {
    const client = redis.createClient({ disableOfflineQueue: true, socket: { host: node.host, port: node.port, connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: false } });
    // Each failure also rejects the call that met it, which is where it is handled.
    client.on('error', () => {});
    return client;
  };
  const subs = subscriptions(onError);
  let client: NodeClient | undefined;
  let address: string | undefined;
  let closed = false;
  let resolveConnected!: () => void;
  const connected = new Promise<void>((resolve) => (resolveConnected = resolve));

  /** Moves to the master at host:port, unless already there. */
  const follow = (host: string, port: number) => {
    const next = `${host}:${port}`;
    if (closed || next === address) return;
    address = next;
    const previous = client;
    const fresh = redis.createClient({ ...nodeOptions, socket: { ...socket(), host, port } });
    client = fresh;
    fresh.on('error', (error: unknown) => {
      onError(error);
      // A lost connection may be a failover: ask where the master is now.
      if (client === fresh) lookSoon();
    });
    fresh.on('ready', () => onReady?.());
    fresh
      .connect()
      .then(async () => {
        const role = (await fresh.sendCommand(['ROLE'])) as unknown[];
        if (role[0] !== 'master') {
          throw new Error(`the Sentinels named ${next} as master "${target.masterName}", which says it is a ${String(role[0])}`);
        }
        if (subscriber) await subs.onto(fresh);
        if (client === fresh) resolveConnected();
      })
      .catch((error: unknown) => {
        if (client !== fresh) return;
        onError(error);
        // Asked again (and followed again, even to the same address) after a pause.
        address = undefined;
        lookSoon(backoff(lookFailures++));
      });
    if (previous?.isOpen) previous.destroy();
  };

  /** The master's address from the first Sentinel that knows it. */
  const ask = async (): Promise<RedisNodeAddress | undefined> => {
    let cause: unknown;
    for (const [i, node] of sentinels.entries()) {
      const sentinel = sentinelClient(node);
      try {
        await sentinel.connect();
        const reply = await sentinel.sendCommand(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', target.masterName]);
        if (Array.isArray(reply) && reply.length === 2) {
          if (i > 0) sentinels.unshift(...sentinels.splice(i, 1));
          return { host: String(reply[0]), port: Number(reply[1]) };
        }
        cause = new Error(`the Sentinel at ${node.host}:${node.port} monitors no master named "${target.masterName}"`);
      } catch (error) {
        cause = error;
      } finally {
        if (sentinel.isOpen) sentinel.destroy();
      }
    }
    onError(new Error(`no Sentinel named the master "${target.masterName}"`, { cause }));
    return undefined;
  };

  let lookTimer: NodeJS.Timeout | undefined;
  let looking = false;
  let lookAgain = false;
  let lookFailures = 0;
  /** Asks the Sentinels after `delayMs`: one question at a time, another after it when more came meanwhile. */
  const lookSoon = (delayMs = 0) => {
    if (closed) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    if (lookTimer) return;
    lookTimer = setTimeout(async () => {
      lookTimer = undefined;
      looking = true;
      const found = await ask();
      looking = false;
      if (closed) return;
      if (found) {
        lookFailures = 0;
        follow(found.host, found.port);
      }
      if (lookAgain) {
        lookAgain = false;
        lookSoon();
      } else if (!found) {
        // No Sentinel answered: ask again, less and less often.
        lookSoon(backoff(lookFailures++));
      }
    }, delayMs).unref();
  };

  // A Sentinel announces each failover on +switch-master; watched on one Sentinel at a time, the
  // next one when it goes away.
  let watcher: NodeClient | undefined;
  let watched = 0;
  let watchTimer: NodeJS.Timeout | undefined;
  const watch = () => {
    watchTimer = undefined;
    if (closed) return;
    const current = sentinelClient(sentinels[watched % sentinels.length]!);
    watcher = current;
    let retrying = false;
    const retry = () => {
      if (retrying || closed) return;
      retrying = true;
      if (current.isOpen) current.destroy();
      watched++;
      watchTimer = setTimeout(watch, CONNECT_TIMEOUT_MS).unref();
    };
    current.on('error', retry);
    current
      .connect()
      .then(() =>
        current.subscribe('+switch-master', (message: string) => {
          // "<name> <old host> <old port> <new host> <new port>"
          const [name, , , host, port] = message.split(' ');
          if (name === target.masterName && host && port) follow(host, Number(port));
        }),
      )
      // A failover while no Sentinel was watched is found by asking.
      .then(() => lookSoon())
      .catch(retry);
  };

  lookSoon();
  watch();

  return {
    kind: 'sentinel',
    commands() {
      if (!client) throw new RedisNotConnectedError(`no Sentinel has named the master "${target.masterName}" yet`);
      return client as unknown as RedisCommands;
    },
    connected,
    ready: () => client?.isReady === true,
    ping(timeoutMs) {
      const now = client;
      return now?.isReady ? pingWithin(async () => (await now.ping()) === 'PONG', timeoutMs) : Promise.resolve(false);
    },
    async subscribe(channel, listener) {
      await subs.add(channel, listener, client?.isReady ? client : undefined);
    },
    async close() {
      closed = true;
      clearTimeout(lookTimer);
      clearTimeout(watchTimer);
      if (watcher?.isOpen) watcher.destroy();
      if (client) await closeClient(client);
    },
  };
}
