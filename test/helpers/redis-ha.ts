import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';

/**
 * Highly available Redis on free loopback ports, from Debian's redis-server (which also runs as
 * a Sentinel: `redis-server <file> --sentinel`) and redis-cli (redis-tools, which redis-server
 * depends on): a master with a replica watched by three Sentinels, and a Cluster of three
 * masters. Every wait is for a condition the servers report, never a fixed sleep.
 */

/** The password of each data node started with one (Sentinels have none). */
const passwords = new Map<number, string>();

/** One command through redis-cli, its reply as redis-cli prints it (an array one element a line). */
export function redisCli(port: number, ...args: string[]): Promise<string> {
  const password = passwords.get(port);
  // The password through the environment, as redis-cli asks, not on a command line.
  const env = password ? { ...process.env, REDISCLI_AUTH: password } : process.env;
  return new Promise((resolve, reject) => {
    execFile('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 5000, env }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout.trim());
    });
  });
}

/** A field of an INFO-style reply (`name:value` lines). */
export function infoField(info: string, name: string): string | undefined {
  return new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
}

/** Polls `check` until it holds, or fails naming what was awaited. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

export interface RedisProcess {
  port: number;
  /** Stops the server (SIGKILL when `crash`, as a host failure would). */
  stop(crash?: boolean): Promise<void>;
  /** Starts it again on the same port with the same arguments. */
  restart(): Promise<void>;
  readonly running: boolean;
}

/** A redis-server with these arguments, answering PING before this resolves. */
async function launch(port: number, args: string[]): Promise<RedisProcess> {
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child = started;
    let exited = false;
    started.once('exit', () => (exited = true));
    await waitFor(`redis-server on port ${port}`, async () => {
      if (exited) throw new Error(`redis-server on port ${port} exited`);
      return (await redisCli(port, 'PING')) === 'PONG';
    }, 10_000, 20);
  };
  await start();
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  return {
    port,
    get running() {
      return alive();
    },
    async stop(crash = false) {
      const c = child;
      if (!c || !alive()) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill(crash ? 'SIGKILL' : 'SIGTERM');
      });
    },
    restart: start,
  };
}

const dataNodeArgs = (port: number, dir: string, password?: string) => {
  if (password) passwords.set(port, password);
  return [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    // A replica syncs at once rather than after the default wait for more replicas.
    '--repl-diskless-sync-delay', '0',
    // A replica (or a master made one) authenticates to its master with the same password.
    ...(password ? ['--requirepass', password, '--masterauth', password] : []),
  ];
};

export interface SentinelGroup {
  /** CACHE_URL for the group: redis+sentinel://[:password@]127.0.0.1:<s1>,…/<masterName>. */
  url: string;
  masterName: string;
  /** The data nodes: the first master, then its replica. */
  nodes: RedisProcess[];
  sentinels: RedisProcess[];
  /** The port of the master every running Sentinel names. */
  masterPort(): Promise<number>;
  /** Waits until every running Sentinel names a master other than `port`, and that master says it is one. */
  waitForNewMaster(port: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * A master, one replica, and three Sentinels (quorum 2) watching them, a master seen down after
 * `downAfterMs`. Resolves once the replica is in sync and every Sentinel knows the replica and
 * the two other Sentinels: a failover can happen from then on.
 */
export async function startSentinelGroup(options: { downAfterMs?: number; masterName?: string; password?: string } = {}): Promise<SentinelGroup> {
  const masterName = options.masterName ?? 'bffmaster';
  const downAfterMs = options.downAfterMs ?? 1000;
  const dir = mkdtempSync(join(tmpdir(), 'bff-sentinel-'));
  const processes: RedisProcess[] = [];
  try {
    const [masterPort, replicaPort] = [await freePort(), await freePort()];
    const master = await launch(masterPort, dataNodeArgs(masterPort, dir, options.password));
    processes.push(master);
    const replica = await launch(replicaPort, [...dataNodeArgs(replicaPort, dir, options.password), '--replicaof', '127.0.0.1', String(masterPort)]);
    processes.push(replica);
    await waitFor('the replica in sync', async () => infoField(await redisCli(replicaPort, 'INFO', 'replication'), 'master_link_status') === 'up');

    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      // A Sentinel rewrites its file: one each.
      const file = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${masterName} 127.0.0.1 ${masterPort} 2`,
          `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
          // A failed election is tried again after twice this: soon, on a machine slow to elect.
          `sentinel failover-timeout ${masterName} 5000`,
          `sentinel parallel-syncs ${masterName} 1`,
          ...(options.password ? [`sentinel auth-pass ${masterName} ${options.password}`] : []),
          '',
        ].join('\n'),
      );
      const sentinel = await launch(port, [file, '--sentinel']);
      sentinels.push(sentinel);
      processes.push(sentinel);
    }
    await waitFor('every Sentinel to know the replica and the other Sentinels', async () => {
      for (const s of sentinels) {
        const fields = sentinelFields(await redisCli(s.port, 'SENTINEL', 'MASTER', masterName));
        if (fields['num-slaves'] !== '1' || fields['num-other-sentinels'] !== '2') return false;
      }
      return true;
    });

    // The master a majority of the running Sentinels name, as a client following them relies on: a
    // Sentinel that has not yet heard of a failover (their news travels every few seconds, later
    // on a loaded machine) is outvoted, not waited for.
    const masterPortNow = async (): Promise<number> => {
      const running = sentinels.filter((x) => x.running);
      const votes = new Map<number, number>();
      for (const s of running) {
        const [, port] = (await redisCli(s.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName)).split('\n');
        votes.set(Number(port), (votes.get(Number(port)) ?? 0) + 1);
      }
      const [port, count] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
      if (count * 2 <= running.length) throw new Error(`no majority of the Sentinels names one master: ${[...votes.keys()].join(', ')}`);
      return port;
    };
    return {
      url: `redis+sentinel://${credentials(options.password)}${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${masterName}`,
      masterName,
      nodes: [master, replica],
      sentinels,
      masterPort: masterPortNow,
      async waitForNewMaster(port, timeoutMs = 30_000) {
        let found = 0;
        await waitFor(`a master other than ${port}`, async () => {
          const now = await masterPortNow();
          if (now === port) return false;
          if (infoField(await redisCli(now, 'INFO', 'replication'), 'role') !== 'master') return false;
          found = now;
          return true;
        }, timeoutMs);
        return found;
      },
      async close() {
        await Promise.all(processes.map((p) => p.stop()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(processes.map((p) => p.stop(true)));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

const credentials = (password?: string) => (password ? `:${encodeURIComponent(password)}@` : '');

/** SENTINEL MASTER's reply (name and value on alternate lines) as an object. */
function sentinelFields(reply: string): Record<string, string> {
  const lines = reply.split('\n');
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < lines.length; i += 2) fields[lines[i]!] = lines[i + 1]!;
  return fields;
}

export interface RunningCluster {
  /** CACHE_URL for the cluster: redis+cluster://[:password@]127.0.0.1:<p1>,…. */
  url: string;
  nodes: RedisProcess[];
  close(): Promise<void>;
}

const SLOTS = 16384;

/**
 * A Redis Cluster of three masters (no replicas), each serving a third of the slots. Resolves
 * once every node knows the other two and reports the cluster ok.
 */
export async function startRedisCluster(options: { password?: string } = {}): Promise<RunningCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'bff-cluster-'));
  const nodes: RedisProcess[] = [];
  try {
    const busPorts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [port, busPort] = [await freePort(), await freePort()];
      busPorts.push(busPort);
      nodes.push(
        await launch(port, [
          ...dataNodeArgs(port, dir, options.password),
          '--cluster-enabled', 'yes',
          '--cluster-port', String(busPort),
          '--cluster-config-file', join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout', '2000',
        ]),
      );
    }
    // What `redis-cli --cluster create` does, without its fixed pauses: distinct epochs, a third of
    // the slots each, then one node meets the others.
    for (const [i, node] of nodes.entries()) {
      const from = Math.floor((SLOTS * i) / nodes.length);
      const to = Math.floor((SLOTS * (i + 1)) / nodes.length) - 1;
      await redisCli(node.port, 'CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1));
      await redisCli(node.port, 'CLUSTER', 'ADDSLOTSRANGE', String(from), String(to));
    }
    for (const [i, node] of nodes.entries()) {
      if (i > 0) await redisCli(nodes[0]!.port, 'CLUSTER', 'MEET', '127.0.0.1', String(node.port), String(busPorts[i]));
    }
    await waitFor('every cluster node to know the others and report the cluster ok', async () => {
      for (const node of nodes) {
        const info = await redisCli(node.port, 'CLUSTER', 'INFO');
        if (infoField(info, 'cluster_state') !== 'ok' || infoField(info, 'cluster_known_nodes') !== '3') return false;
      }
      return true;
    });
    return {
      url: `redis+cluster://${credentials(options.password)}${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
      nodes,
      async close() {
        await Promise.all(nodes.map((n) => n.stop()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(nodes.map((n) => n.stop(true)));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
