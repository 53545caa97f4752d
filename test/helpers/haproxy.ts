import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';
import { where } from './system-programs.js';

/** A real HAProxy (`.ci/run` installs Debian's package when missing); a suite asks `needs('haproxy')`. */
const binary = where('haproxy');

export interface HaproxyOptions {
  /** The instances behind it, by name, each on a loopback port. */
  servers: { name: string; port: number }[];
  /** Health checks of GET /readyz: every `interMs`, down after `fall` failures, up after `rise` successes. */
  interMs: number;
  fall: number;
  rise: number;
}

export interface RunningHaproxy {
  /** The front end, such as http://127.0.0.1:41234; GraphQL at `${url}/graphql`. */
  url: string;
  /** Each server's state as HAProxy sees it: UP, DOWN, or a transition such as "UP 1/2". */
  states(): Promise<Record<string, string>>;
  /** Everything HAProxy wrote (warnings, alerts). */
  output(): string;
  close(): Promise<void>;
}

/**
 * The load balancer configuration a fleet of BFF instances is run behind (docs/operations.md,
 * "HAProxy and nginx"), on free loopback ports.
 */
export function haproxyConfig(frontendPort: number, statsPort: number, { servers, interMs, fall, rise }: HaproxyOptions): string {
  return `global
  maxconn 4096
  nbthread 1

defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  timeout tunnel 1h
  timeout http-keep-alive 30s
  timeout check 5s
  # The client's address for the BFF (TRUST_PROXY names this proxy).
  option forwardfor
  # A request that found no connection is sent to another instance.
  retries 3
  option redispatch 1

frontend graphql
  bind 127.0.0.1:${frontendPort}
  default_backend bff

backend bff
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  # A request never sent (no connection) may always go to another instance; one that was sent
  # only when repeating it is harmless: never a POST, which may be a mutation.
  retry-on conn-failure empty-response 503
  http-request disable-l7-retry if METH_POST
  default-server inter ${interMs} fall ${fall} rise ${rise}
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n')}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

export async function startHaproxy(options: HaproxyOptions): Promise<RunningHaproxy> {
  if (!binary) throw new Error('haproxy is not installed');
  const [frontendPort, statsPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'bff-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(frontendPort, statsPort, options));
  const check = spawnSync(binary, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration:\n${check.stdout}${check.stderr}`);

  let output = '';
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header!.split(',');
    const [proxy, server, status] = ['pxname', 'svname', 'status'].map((name) => columns.indexOf(name));
    const found: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[proxy!] === 'bff' && cells[server!] !== 'BACKEND') found[cells[server!]!] = cells[status!]!;
    }
    return found;
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited at start:\n${output}`);
    try {
      await states();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`haproxy did not answer within 10 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    url: `http://127.0.0.1:${frontendPort}`,
    states,
    output: () => output,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
