import type { RedisTarget } from './redis-url.js';
import {
  backoff,
  RedisNotConnectedError,
  socket,
  pingWithin,
  subscriptions,
  type RedisCommands,
  type RedisConnection,
  type RedisConnectionOptions,
  type RedisModule,
} from './redis-common.js';

/**
 * A Redis Cluster through node-redis's cluster client: it learns the slots from any node it is
 * given, sends each command to the master of its key's slot and follows MOVED answers. Every
 * script the shared features run names keys of one slot (their hash tags see to it).
 *
 * `connect()` fails when no node answers (and may be called again then): until one does, this
 * tries again in the background, and commands fail at once meanwhile. A message published on any
 * node reaches a subscriber on any other (the Cluster forwards it on its bus), so a subscriber
 * holds one connection, to a node the client picks.
 */
export function clusterConnection(
  redis: RedisModule,
  target: Extract<RedisTarget, { kind: 'cluster' }>,
  { onError, onReady, subscriber }: RedisConnectionOptions,
): RedisConnection {
  const credentials = { ...(target.username ? { username: target.username } : {}), ...(target.password ? { password: target.password } : {}) };
  const nodes = redis.createCluster({
    rootNodes: target.nodes.map((node) => ({ socket: { host: node.host, port: node.port } })),
    defaults: { ...credentials, disableOfflineQueue: true, socket: socket() },
    // A subscriber needs one node only.
    minimizeConnections: subscriber === true,
  });
  nodes.on('error', (error: unknown) => onError(error));
  nodes.on('node-error', (error: unknown) => onError(error));
  nodes.on('node-ready', () => onReady?.());
  const subs = subscriptions(onError);
  let up = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let resolveConnected!: () => void;
  const connected = new Promise<void>((resolve) => (resolveConnected = resolve));

  const attempt = async (retries: number): Promise<void> => {
    timer = undefined;
    if (closed) return;
    try {
      await nodes.connect();
    } catch (error) {
      onError(error);
      if (!closed) timer = setTimeout(() => void attempt(retries + 1), backoff(retries)).unref();
      return;
    }
    if (closed) return;
    up = true;
    if (subscriber) await subs.onto(nodes);
    resolveConnected();
  };
  void attempt(0);

  const mastersReady = () => nodes.masters.length > 0 && nodes.masters.every((master) => master.client?.isReady === true);
  const pingMasters = async () => {
    const answers = await Promise.all(nodes.masters.map(async (master) => (await nodes.nodeClient(master)).ping()));
    return answers.length > 0 && answers.every((answer) => answer === 'PONG');
  };
  return {
    kind: 'cluster',
    commands() {
      if (!up) throw new RedisNotConnectedError('no node of the Redis Cluster has answered yet');
      return nodes as unknown as RedisCommands;
    },
    connected,
    ready: () => up && (subscriber ? nodes.pubSubNode?.client.isReady === true : mastersReady()),
    // Every master: one away leaves its slots (a share of every feature's keys) unserved.
    ping: (timeoutMs) => (up ? pingWithin(pingMasters, timeoutMs) : Promise.resolve(false)),
    async subscribe(channel, listener) {
      // node-redis subscribes again after a reconnect, and on another node when its node leaves the Cluster.
      await subs.add(channel, listener, up ? nodes : undefined);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      if (!nodes.isOpen) return;
      try {
        await nodes.close();
      } catch {
        nodes.destroy();
      }
    },
  };
}
