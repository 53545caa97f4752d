import autocannon, { type Options, type Result } from 'autocannon';
import { freePort, killAllNow, pinSelf, startService } from './lib/children.js';
import { cpuMeter } from './lib/proc-stats.js';

/**
 * Throughput of campaigns/get against the emulator with no faults. The emulator runs as its own
 * process (`npm run emulator`'s built entry) pinned to core 0, the load generator in this process
 * pinned to core 1, so neither takes the other's core (one core: Node serves HTTP on one thread).
 *
 *   npx tsx bench/emulator-get.ts [seconds=10] [connections=10] [operation=campaigns/get]
 *
 * Another read operation taking {ymCampaignId} (campaigns/info) can be given for comparison;
 * campaigns/get serves a cached answer, info builds its answer on every call.
 */

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);
const operation = process.argv[4] ?? 'campaigns/get';
const TARGET = 5_000;
/** The emulator's demo store partner (src/emulator/README.md). */
const STORE_TOKEN = 'demo-store-token';

const pinned = pinSelf(1);
process.on('exit', killAllNow);
const port = await freePort();
const emulator = await startService({
  name: 'emulator',
  program: { product: 'emulator' },
  env: { EMULATOR_PORT: String(port), EMULATOR_HOST: '127.0.0.1' },
  core: 0,
  port,
  readyPath: '/openapi.json',
  discardStdout: true,
});
const options: Options = {
  url: `${emulator.origin}/v1/${operation}`,
  method: 'POST',
  headers: { authorization: `Bearer ${STORE_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify({ ymCampaignId: 1 }),
  connections,
};

async function run(duration: number): Promise<Result> {
  return autocannon({ ...options, duration });
}

await run(2); // warm-up: JIT, connection pool
const cpu = cpuMeter(emulator.pid);
const result = await run(seconds);
const used = cpu.stop();
await emulator.stop();

const perSecond = result.requests.average;
const failures = result.non2xx + result.errors + result.timeouts;
const report = {
  operation,
  seconds,
  connections,
  pinned,
  requestsPerSecond: Math.round(perSecond),
  totalRequests: result.requests.total,
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  emulatorCpu: Math.round(used.cores * 100) / 100,
  emulatorCpuUsPerRequest: result.requests.total > 0 ? Math.round((used.cpuSeconds * 1e6) / result.requests.total) : 0,
  failures,
  target: TARGET,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `${operation}: ${Math.round(perSecond)} requests/s on one core (target ≥ ${TARGET}), ${report.emulatorCpuUsPerRequest} µs CPU per request, p99 ${result.latency.p99} ms, ${failures} failures\n`,
);
if (failures > 0 || perSecond < TARGET) process.exitCode = 1;
