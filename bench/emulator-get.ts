import autocannon, { type Options, type Result } from 'autocannon';
import { DEMO_TOKENS, startEmulator } from '../src/emulator/index.js';

/**
 * Throughput of campaigns/get against the emulator with no faults. The emulator runs on this
 * process's main thread (one core: Node serves HTTP on one thread); autocannon fires from a
 * worker thread so the load generator does not take the emulator's core.
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

const emulator = await startEmulator({ quiet: true });
// `workers` is an autocannon option the shared declaration in bench/lib does not list.
const options: Options & { workers: number } = {
  url: `${emulator.url}/v1/${operation}`,
  method: 'POST',
  headers: { authorization: `Bearer ${DEMO_TOKENS.store}`, 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify({ ymCampaignId: 1 }),
  connections,
  workers: 1,
};

async function run(duration: number): Promise<Result> {
  return autocannon({ ...options, duration });
}

await run(2); // warm-up: JIT, connection pool
const result = await run(seconds);
await emulator.close();

const perSecond = result.requests.average;
const failures = result.non2xx + result.errors + result.timeouts;
const report = {
  operation,
  seconds,
  connections,
  requestsPerSecond: Math.round(perSecond),
  totalRequests: result.requests.total,
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  failures,
  target: TARGET,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${operation}: ${Math.round(perSecond)} requests/s on one core (target ≥ ${TARGET}), p99 ${result.latency.p99} ms, ${failures} failures\n`);
if (failures > 0 || perSecond < TARGET) process.exitCode = 1;
