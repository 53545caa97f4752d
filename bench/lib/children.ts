import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { productCommand, REPO_ROOT, WORKING_TREE, type ProductEntry, type ProductTree } from './product.js';

const TAIL_LINES = 40;

export interface ServiceSpec {
  /** Shown in the table and in error messages. */
  name: string;
  /**
   * What runs: an entry of the product, built (as `npm start` builds it) and run from `dist/` with
   * its start script's node options, of this working tree unless `tree` says; a bench server in
   * TypeScript (relative to the repository root, under `node --import tsx`); or a JavaScript file
   * with its arguments, from `cwd`.
   */
  program: { product: ProductEntry; tree?: ProductTree } | { bench: string } | { script: string; args?: string[]; cwd?: string };
  /** More node options, such as `--cpu-prof`; after the start command's, so a V8 option given here wins. */
  nodeArgs?: string[];
  env: Record<string, string>;
  /** The core to pin the process to (taskset), when taskset exists. */
  core?: number;
  port: number;
  /** A GET path that answers 200 once the service serves. */
  readyPath: string;
  /** A BFF's METRICS_PORT: its `/metrics` has a listener of its own, apart from `port`. */
  metricsPort?: number;
  readyHeaders?: Record<string, string>;
  /** How long start-up may take before it counts as failed. */
  readyTimeoutMs?: number;
  /**
   * Standard output goes to /dev/null, as a log shipper takes a server's lines away: the server
   * still formats and writes every line (its cost is measured), and the driver, which would
   * otherwise read them through a pipe on its own core, spends nothing on them.
   */
  discardStdout?: boolean;
}

export interface Service {
  name: string;
  /** The pid of the node process itself (taskset execs into node, so no wrapper in between). */
  pid: number;
  origin: string;
  /** Where a BFF serves `/metrics` (its METRICS_PORT), when the spec gave one. */
  metricsUrl?: string;
  /** The last lines the process wrote on stdout and stderr, for error messages. */
  tail(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export class ServiceStartError extends Error {
  constructor(name: string, reason: string, tail: string) {
    super(`${name} did not start: ${reason}\n--- last output of ${name} ---\n${tail || '(nothing)'}\n---`);
    this.name = 'ServiceStartError';
  }
}

const running = new Set<ChildProcess>();

/** Kills every child still alive at once; safe to call from an 'exit' handler (synchronous). */
export function killAllNow(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.clear();
}

let tasksetAvailable: boolean | undefined;
export function hasTaskset(): boolean {
  tasksetAvailable ??= spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
  return tasksetAvailable;
}

/** Pins this process, all its threads included, to one core. Returns false without taskset. */
export function pinSelf(core: number): boolean {
  if (!hasTaskset()) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/** Ports handed out by this process: each is some child's, bound now or a moment later. */
const handedOut = new Set<number>();

/**
 * A port free on the loopback interface right now (the child binds it a moment later), and never
 * one handed out before: the kernel may give a port just closed again before its child binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const found = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(found));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function keepTail(lines: string[], chunk: Buffer): void {
  for (const line of chunk.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    lines.push(line);
    if (lines.length > TAIL_LINES) lines.shift();
  }
}

/** The node command line of a program, and the directory it runs from. */
function commandOf(spec: ServiceSpec): { nodeArgs: string[]; cwd: string } {
  const { program } = spec;
  const extra = spec.nodeArgs ?? [];
  if ('product' in program) {
    const { script, nodeOptions } = productCommand(program.tree ?? WORKING_TREE, program.product);
    return { nodeArgs: [...nodeOptions, ...extra, script], cwd: (program.tree ?? WORKING_TREE).root };
  }
  if ('bench' in program) return { nodeArgs: [...extra, '--import', 'tsx', program.bench], cwd: REPO_ROOT };
  return { nodeArgs: [...extra, program.script, ...(program.args ?? [])], cwd: program.cwd ?? REPO_ROOT };
}

/**
 * Starts a program as its own node process, pinned to a core, and waits until `readyPath` answers
 * 200. Fails with the process's last output when it exits or times out first.
 */
export async function startService(spec: ServiceSpec): Promise<Service> {
  const { nodeArgs, cwd } = commandOf(spec);
  const pinned = spec.core !== undefined && hasTaskset();
  const [command, args] = pinned
    ? ['taskset', ['-c', String(spec.core), process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...spec.env, ...(spec.metricsPort === undefined ? {} : { METRICS_PORT: String(spec.metricsPort) }) },
    stdio: ['ignore', spec.discardStdout ? 'ignore' : 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: string[] = [];
  // Both streams are drained, or a chatty child would block on a full pipe.
  child.stdout?.on('data', (chunk: Buffer) => keepTail(lines, chunk));
  child.stderr!.on('data', (chunk: Buffer) => keepTail(lines, chunk));
  const tail = () => lines.join('\n');

  let exitReason: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      exitReason = signal ? `killed by ${signal}` : `exited with code ${code}`;
      resolve();
    });
    child.once('error', (error) => {
      running.delete(child);
      exitReason = `could not be spawned: ${error.message}`;
      resolve();
    });
  });

  const origin = `http://127.0.0.1:${spec.port}`;
  const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exitReason) throw new ServiceStartError(spec.name, exitReason, tail());
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new ServiceStartError(spec.name, `${origin}${spec.readyPath} did not answer 200 within ${spec.readyTimeoutMs ?? 60_000} ms`, tail());
    }
    try {
      const response = await fetch(`${origin}${spec.readyPath}`, { headers: spec.readyHeaders ?? {}, signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  if (child.pid === undefined) throw new ServiceStartError(spec.name, 'no pid', tail());

  return {
    name: spec.name,
    pid: child.pid,
    origin,
    ...(spec.metricsPort === undefined ? {} : { metricsUrl: `http://127.0.0.1:${spec.metricsPort}/metrics` }),
    tail,
    async stop(graceMs = 3000) {
      if (exitReason) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
