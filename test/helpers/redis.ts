import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { where } from './system-programs.js';

/**
 * Whether a real redis-server can be started here (`.ci/run` installs it when missing), for code
 * outside the test runner; a test's skip condition asks `needs('redis-server')` (./needs.ts).
 */
export const redisAvailable = where('redis-server') !== undefined;

/** A port nothing listens on now (bound and released), for a server whose address must be known before it starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL when `crash`), as an outage would. */
  stop(crash?: boolean): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered, as with a hung host. */
  pause(): void;
  /** Lets a frozen server go on (SIGCONT). */
  resume(): void;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/** A throw-away redis-server on a free loopback port, without persistence. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bff-redis-'));
  let child: ChildProcess | undefined;

  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5000);
      child!.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}`));
      });
    });
  };
  const stop = async (crash = false) => {
    const c = child;
    // A process killed by a signal has signalCode set and exitCode null: it has exited too.
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill(crash ? 'SIGKILL' : 'SIGTERM');
    });
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async (crash) => {
      await stop(crash);
    },
    restart: launch,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    close: async () => {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
