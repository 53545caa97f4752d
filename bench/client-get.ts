import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { createCampaignApiClient } from '../src/campaign-api/http-client.js';
import { freePort, killAllNow, pinSelf, startService } from './lib/children.js';

const USAGE = `npx tsx bench/client-get.ts [--seconds S] [--warmup S]

Calls per second of the REST client's \`get\` against the emulator, on 1 connection and on 32.
The emulator runs as its own process pinned to core 1, this process is pinned to core 0, so
the figures are the client's, not the two sharing a core. Each row is compared with a bare
undici Pool.request + JSON.parse doing the same call (no envelope check, no zod, no
policies): the difference in CPU time per call is the client's own overhead.

  --seconds S  measured seconds per row (default 3)
  --warmup S   unmeasured seconds before each row (default 1)`;

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, warmup: { type: 'string', default: '1' }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
if (!(seconds > 0) || !(warmup >= 0)) {
  process.stderr.write(`--seconds must be > 0 and --warmup >= 0, got ${values.seconds} and ${values.warmup}\n${USAGE}\n`);
  process.exit(2);
}

const TOKEN = 'demo-store-token';
const CAMPAIGN = { ymCampaignId: 1 };

interface Row {
  what: string;
  connections: number;
  callers: number;
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  cpuMicrosPerCall: number;
  failures: number;
}

/** `callers` loops each awaiting one call at a time, for `durationS` seconds. */
async function drive(call: () => Promise<unknown>, callers: number, durationS: number) {
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + durationS * 1000;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await call();
          latencies.push(performance.now() - t0);
        } catch {
          failures++;
        }
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const calls = latencies.length + failures;
  return {
    calls,
    perSecond: calls / elapsedS,
    p50: pick(0.5),
    p99: pick(0.99),
    cpuMicrosPerCall: (cpu.user + cpu.system) / calls,
    failures,
  };
}

async function measure(what: string, connections: number, callers: number, make: () => { call: () => Promise<unknown>; close: () => Promise<void> }): Promise<Row> {
  const subject = make();
  try {
    if (warmup > 0) await drive(subject.call, callers, warmup);
    return { what, connections, callers, ...(await drive(subject.call, callers, seconds)) };
  } finally {
    await subject.close();
  }
}

function clientGet(origin: string, connections: number) {
  const client = createCampaignApiClient({ baseUrl: origin, connections, bulkhead: { maxConcurrent: 256, maxQueue: 1024 } });
  return { call: () => client.get(TOKEN, CAMPAIGN), close: () => client.close() };
}

function bareUndici(origin: string, connections: number) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const body = JSON.stringify(CAMPAIGN);
  const headers = { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${TOKEN}` };
  return {
    async call() {
      const response = await pool.request({ path: '/v1/campaigns/get', method: 'POST', headers, body });
      const parsed = JSON.parse(await response.body.text()) as { status?: string };
      if (response.statusCode !== 200 || parsed.status !== 'success') throw new Error(`HTTP ${response.statusCode}`);
      return parsed;
    },
    close: () => pool.close(),
  };
}

const pinned = pinSelf(0);
process.on('exit', killAllNow);
const port = await freePort();
const emulator = await startService({
  name: 'emulator',
  program: { product: 'emulator' },
  env: { EMULATOR_PORT: String(port) },
  core: 1,
  port,
  readyPath: '/openapi.json',
});

const rows: Row[] = [];
try {
  for (const [connections, callers] of [
    [1, 1],
    [1, 32],
    [32, 32],
  ] as const) {
    rows.push(await measure('client.get', connections, callers, () => clientGet(emulator.origin, connections)));
    rows.push(await measure('bare undici', connections, callers, () => bareUndici(emulator.origin, connections)));
  }
} finally {
  await emulator.stop();
}

const header = ['what', 'connections', 'callers', 'calls/s', 'p50 ms', 'p99 ms', 'CPU µs/call', 'failures'];
const table = rows.map((r) => [
  r.what,
  String(r.connections),
  String(r.callers),
  r.perSecond.toFixed(0),
  r.p50.toFixed(2),
  r.p99.toFixed(2),
  r.cpuMicrosPerCall.toFixed(0),
  String(r.failures),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
process.stdout.write(
  [
    `campaigns/get through the REST client, ${seconds} s per row${pinned ? ' (client on core 0, emulator on core 1)' : ' (taskset missing: not pinned)'}`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...table.map(line),
    '',
  ].join('\n'),
);
for (let i = 0; i < rows.length; i += 2) {
  const client = rows[i]!;
  const bare = rows[i + 1]!;
  process.stdout.write(
    `${client.connections} connection(s), ${client.callers} caller(s): the client costs ${(client.cpuMicrosPerCall - bare.cpuMicrosPerCall).toFixed(0)} µs CPU per call more than bare undici\n`,
  );
}
if (rows.some((r) => r.failures > 0)) process.exitCode = 1;
