import { parseArgs } from 'node:util';

export const USAGE = `npm run soak [-- --duration 5m] [-- --concurrency N] [-- --flap 5s] [-- --max-requests N] [-- --json FILE]

A long mixed-load run on loopback: the emulator and the BFF (NODE_ENV=production) as child
processes, several partners sending queries and mutations (their own and each other's ids) while
the backend flaps between healthy and failing. Not part of npm test.

  --duration D       how long the load runs: 300, 30s, 5m, 1h (default 5m; env SOAK_DURATION)
  --max-requests N   stop earlier once N requests were sent (default 2000000; env SOAK_MAX_REQUESTS)
  --concurrency N    requests in flight at once (default 16; env SOAK_CONCURRENCY)
  --flap D           length of each healthy or failing phase of the backend (default 5s; env SOAK_FLAP)
  --warmup D         load before the memory baseline is taken (default 10% of the run, at most 30s)
  --subscribers N    campaignChanged subscribers per partner held open all along, half over
                     WebSocket and half over SSE (default 10; env SOAK_SUBSCRIBERS)
  --seed N           seed of every random choice, so a run can be replayed (default 1; env SOAK_SEED)
  --json FILE        also write the report as JSON to FILE
  --help             this text

Exit code 0 when the run passed; 1 on any 5xx, any cross-partner leak, an error logged by the BFF,
memory growth over 20% (end against the baseline after warm-up), a backend state that disagrees
with what the mutations reported, a subscription dropped while the backend flapped, live events
out of order or about another partner, watchers left in the BFF after the subscribers left, or fewer than half of the requests answered without an error
while the backend was healthy (a breaker that does not close); also 1 when the soak could not run.`;

export interface SoakOptions {
  durationMs: number;
  maxRequests: number;
  concurrency: number;
  flapMs: number;
  warmupMs: number;
  seed: number;
  subscribers: number;
  json: string | undefined;
}

/** `300`, `30s`, `5m`, `1h` or `1500ms` → milliseconds. */
export function parseDuration(name: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!match) throw new Error(`${name} must be a duration such as 300, 30s, 5m or 1h, got ${JSON.stringify(raw)}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

function whole(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

export function readOptions(argv: string[], env: NodeJS.ProcessEnv): SoakOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      'max-requests': { type: 'string' },
      concurrency: { type: 'string' },
      flap: { type: 'string' },
      warmup: { type: 'string' },
      seed: { type: 'string' },
      subscribers: { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const durationMs = parseDuration('--duration', values.duration ?? env.SOAK_DURATION ?? '5m');
  if (durationMs < 5000 || durationMs > 24 * 3_600_000) throw new Error(`--duration must be from 5s to 24h, got ${durationMs} ms`);
  const flapMs = parseDuration('--flap', values.flap ?? env.SOAK_FLAP ?? '5s');
  if (flapMs < 500 || flapMs > durationMs) throw new Error(`--flap must be from 500ms to the duration, got ${flapMs} ms`);
  const warmupMs = values.warmup !== undefined ? parseDuration('--warmup', values.warmup) : Math.min(30_000, Math.round(durationMs / 10));
  if (warmupMs >= durationMs) throw new Error(`--warmup must be shorter than the duration`);
  return {
    durationMs,
    maxRequests: whole('--max-requests', values['max-requests'] ?? env.SOAK_MAX_REQUESTS ?? '2000000', 1, 100_000_000),
    concurrency: whole('--concurrency', values.concurrency ?? env.SOAK_CONCURRENCY ?? '16', 1, 512),
    flapMs,
    warmupMs,
    seed: whole('--seed', values.seed ?? env.SOAK_SEED ?? '1', 0, 2 ** 31 - 1),
    subscribers: whole('--subscribers', values.subscribers ?? env.SOAK_SUBSCRIBERS ?? '10', 0, 1000),
    json: values.json,
  };
}
