import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { cid } from '../helpers/ids.js';
import { startCommand } from '../helpers/start-command.js';

/**
 * The commands the README gives, run as it gives them: `npm start` (development, on a fresh
 * clone) and the production command. Each in a copy of the project, so that building there
 * leaves alone the dist/ other test files run.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 90_000;

let project: string;
let entry: BuiltEntry | undefined;
let emulator: RunningEmulator | undefined;

beforeAll(() => {
  // A fresh clone: the sources and the lock of dependencies, no dist/. node_modules is the one installed here.
  project = mkdtempSync(join(tmpdir(), 'bff-start-'));
  for (const path of ['package.json', 'package-lock.json', 'scripts', 'src', 'schema', 'explorer']) cpSync(join(root, path), join(project, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
});
afterEach(async () => {
  await entry?.stop();
  await emulator?.close();
  entry = emulator = undefined;
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The pids whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // The command name is in parentheses and may hold spaces: the fields after it are plain.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === pid ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function tryConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** The node process that runs the server, among the descendants of `pid`, and its parent. */
function serverUnder(pid: number): { server: number; parent: number } {
  for (const child of childrenOf(pid)) {
    const argv = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    if (argv[0] === 'node' && argv.includes('dist/src/main.js')) return { server: child, parent: pid };
    try {
      return serverUnder(child);
    } catch {
      // Not under this one.
    }
  }
  throw new Error(`no node dist/src/main.js under ${pid}`);
}

/** `npm start` in the copy, in a process group of its own, as a terminal or a supervisor starts it. */
async function npmStart(): Promise<{ entry: BuiltEntry; server: number; parent: number }> {
  rmSync(join(project, 'dist'), { recursive: true, force: true });
  const started = await startBuiltEntry({ command: { file: 'npm', args: ['start'], cwd: project, detached: true }, startTimeoutMs: START_TIMEOUT_MS });
  // Ended with its whole group after the test, whatever fails below.
  entry = started;
  return { entry: started, ...serverUnder(started.child.pid!) };
}

/** A query that the embedded emulator answers after `latencyMs`, resolved once it waits on it. */
async function queryInFlight(started: BuiltEntry, latencyMs: number): Promise<Promise<{ status: number; body: any }>> {
  const admin = (path: string, init?: RequestInit) => fetch(`${started.emulatorUrl}/_emulator/${path}`, { headers: { 'content-type': 'application/json' }, ...init });
  await admin('faults', { method: 'POST', body: JSON.stringify({ mode: 'latency', latencyMs, operation: 'campaigns/get' }) });
  const answer = fetch(started.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token' },
    body: JSON.stringify({ query: '{ campaign(id: "1") { id } }' }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));
  for (let i = 0; i < 200; i++) {
    const { calls } = (await (await admin('calls')).json()) as { calls: Record<string, number> };
    if ((calls['campaigns/get'] ?? 0) >= 1) return answer;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the query never reached the backend');
}

/** The server's last lines say it shut down on `signal`, once, and npm exited 0 with nothing left listening. */
async function expectGracefulStop(started: BuiltEntry, server: number, signal: NodeJS.Signals): Promise<void> {
  expect(await started.exited).toEqual({ code: 0, signal: null });
  const lines = started.logs().filter((line) => /shutting down|stopped|second signal/.test(line.msg));
  expect(lines).toEqual([expect.objectContaining({ msg: 'shutting down: finishing in-flight requests', signal }), expect.objectContaining({ msg: 'stopped' })]);
  expect(alive(server)).toBe(false);
  expect(await tryConnect(started.url)).toBe('ECONNREFUSED');
}

describe('npm start (development, a fresh clone)', () => {
  it(
    'builds, then serves; a SIGTERM sent to npm alone reaches the server, which drains and stops, and npm exits 0',
    async () => {
      const { entry: started, server, parent } = await npmStart();
      expect(statSync(join(project, 'dist/src/main.js')).isFile()).toBe(true);
      expect((await fetch(started.url.replace('/graphql', '/healthz'))).status).toBe(200);

      const answer = await queryInFlight(started, 1500);
      process.kill(started.child.pid!, 'SIGTERM');
      expect(await answer).toEqual({ status: 200, body: { data: { campaign: { id: cid(1) } } } });
      await expectGracefulStop(started, server, 'SIGTERM');
      // How: the script's shell made way for node (exec), so npm passes the signal to the server itself.
      expect(parent).toBe(started.child.pid);
    },
    START_TIMEOUT_MS + 30_000,
  );

  it(
    'a Ctrl-C (SIGINT to the whole process group, which npm passes on again) is one request to stop, not two',
    async () => {
      const { entry: started, server } = await npmStart();
      // While a request drains, so the signal npm passes on arrives before the server is done.
      const answer = await queryInFlight(started, 1500);
      process.kill(-started.child.pid!, 'SIGINT');
      expect(await answer).toEqual({ status: 200, body: { data: { campaign: { id: cid(1) } } } });
      await expectGracefulStop(started, server, 'SIGINT');
    },
    START_TIMEOUT_MS + 30_000,
  );
});

describe('the production command of the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  // The first command the README gives for production.
  const production = /^NODE_ENV=production [^\n]+$/m.exec(readme)?.[0];

  it(
    'starts from the build made beforehand, building nothing, and is itself the process that drains on SIGTERM',
    async () => {
      expect(production, 'a line of the README starting NODE_ENV=production').toBeDefined();
      expect(readme).toContain('npm ci && npm run build');
      // The build made beforehand, as the README says (npm ci is the install this copy shares).
      execFileSync('npm', ['run', 'build'], { cwd: project, stdio: 'ignore' });
      const command = production!.replace(/\s+#.*$/, '').trim().split(/\s+/);
      const env: Record<string, string> = {};
      while (/^[A-Z_]+=/.test(command[0]!)) {
        const [name, ...value] = command.shift()!.split('=');
        env[name!] = value.join('=');
      }
      expect(env.NODE_ENV).toBe('production');
      // The start command itself, node options included (package.json's, the image's CMD).
      const start = startCommand();
      expect(command).toEqual(['node', ...start.nodeOptions, start.entry]);
      emulator = await startEmulator({ quiet: true });
      env.CAMPAIGN_API_URL = emulator.url;

      const dist = join(project, 'dist');
      const snapshot = () =>
        Object.fromEntries(
          readdirSync(dist, { recursive: true, withFileTypes: true }).map((file) => {
            const path = join(file.parentPath, file.name);
            const stat = statSync(path);
            return [path, `${stat.ino}:${stat.mtimeMs}`];
          }),
        );
      const before = { dist: statSync(dist).ino, files: snapshot() };

      // In a process group of its own, ended whole after the test, whatever the command starts.
      entry = await startBuiltEntry({ command: { file: command[0]!, args: command.slice(1), cwd: project, detached: true }, env, startTimeoutMs: START_TIMEOUT_MS });
      expect(entry.logs()).toContainEqual(expect.objectContaining({ msg: 'started', mode: 'production' }));
      expect({ dist: statSync(dist).ino, files: snapshot() }).toEqual(before);
      // No process in between: the command's process is the server.
      expect(childrenOf(entry.child.pid!)).toEqual([]);

      entry.child.kill('SIGTERM');
      await expectGracefulStop(entry, entry.child.pid!, 'SIGTERM');
    },
    START_TIMEOUT_MS + 30_000,
  );
});
