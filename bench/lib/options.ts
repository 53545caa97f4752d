import { parseArgs } from 'node:util';

/** `npm run bench`'s command line: what each option does, and the profile of a run it makes. */

export const USAGE = `npm run bench [-- --quick] [-- --connections N] [-- --duration S]

Starts the emulator, the BFF (NODE_ENV=production, shipped log level) and reference servers (a
bare node:http floor, stock Apollo Server, a mercurius server written for the warm categories
query, a hand-written REST client) as separate processes, runs every scenario at 0 ms and 10 ms
backend latency (the floor, warm categories and mercurius in three interleaved rounds, one with
--quick), splits the warm query's CPU by stage from a CPU profile, checks its targets, prints a
table and writes bench/results/latest.json; a run with a wrong answer is rejected instead (see
Exit code).

  --quick          short runs and 10 connections: the whole bench in under a minute (CI smoke)
  --connections N  connections of the load runs (default 50; 10 with --quick)
  --duration S     seconds of each measured run (default 10, 5 under --compare; 1.2 with --quick)
  --warmup S       seconds of load before each measured run (default 2; 0.4 with --quick): longer on
                   a machine busy with other work, where 2 s are too few requests to warm the JIT
  --only LIST      run only these parts, comma-separated: floor, floor-line (the floor that also parses
                   the body and writes the BFF's request line and metrics), stock-apollo, categories (and the same
                   on a second BFF with LOG_LEVEL=warn: the request log line's cost), categories-apollo-client
                   (the same with Apollo Client's Accept header), categories-persisted (the
                   same by persisted-query hash, as Apollo Client's link sends it), mercurius (Fastify and
                   mercurius written for the warm categories query, with and without a log line per request),
                   stages (the warm categories query's CPU per request by stage, from a CPU profile of its
                   load window), card, by-ids (campaignsByIds of 50 ids, and of one id 50 times), list-ids,
                   list-cards, rest-floor-list, create, probes (list cards and its REST floor over
                   4 connections), memory (list cards, 50 connections for 60 s: peak RSS and growth),
                   subscriptions (5,000 WebSocket subscribers; 500 with --quick),
                   feed (app feed vs its floor and vs the partner query), feed-load (200 connections of
                   app opens at 10 ms: backend calls per minute), stampede (500 app opens on a cold feed),
                   fleet (two BFF instances sharing a redis-server: builds per window, a stop through A seen by B);
                   and, only when named, hive (the same API through Hive Gateway over the emulator's OpenAPI
                   document, installed on first use into bench/hive/node_modules)
  --latency LIST   backend latencies in ms, comma-separated (default 0,10)
  --bff-node-args="ARGS"  node options for the BFF process only (e.g. --bff-node-args="--max-old-space-size=128")
  --profile        run the BFF under node --cpu-prof and print its top frames at the end
                   (profiles in $TMPDIR/campaign-bff-bench-profiles/)
  --tracing        also start a BFF exporting every span (OTLP/HTTP to a local sink, sampler
                   always on) and run categories, card and list cards on it right after the
                   same runs untraced (rows marked "traced")
  --compare REF    build the commit REF beside the working tree and run the BFF's rows on both,
                   interleaved (rounds alternating which goes first), printing each row's ratio
                   (working tree ÷ REF, median of the rounds) by CPU per request and by req/s; with
                   stages in --only (the default), the stage split of both too. Writes
                   bench/results/compare.json, not latest.json
  --rounds N       rounds of --compare and of the hive part (default 5 and 2; 2 and 1 with --quick)
  --help           this text

Exit code: 0 when every answer was right and every backend call count minimal; 2 when not: the
run is rejected, prints no table and leaves latest.json as it was, and names each wrong scenario
with its first wrong body (details in bench/results/rejected.json); 1 when the bench could not
run. Speed targets never change it: they are in the output and latest.json. Under --compare, a
row one build cannot answer is reported as such (exit code 0); a wrong answer in a measured run
gives 2.

Environment variables of the BFF (BACKEND_CONNECTIONS, LOADER_CONCURRENCY, ...) are passed on,
so a tuning can be measured without editing code.`;

/** Every part a run may name; a run without --only runs all but those that need an install. */
export const PARTS = [
  'floor',
  'floor-line',
  'stock-apollo',
  'categories',
  'categories-apollo-client',
  'categories-persisted',
  'mercurius',
  'stages',
  'card',
  'by-ids',
  'list-ids',
  'list-cards',
  'rest-floor-list',
  'create',
  'probes',
  'memory',
  'subscriptions',
  'feed',
  'feed-load',
  'stampede',
  'fleet',
  'hive',
] as const;

/** The part a scenario belongs to: its key, or the part that holds several (feed, mercurius, by-ids). */
export function partOf(key: string): string {
  for (const part of ['feed', 'mercurius', 'by-ids']) if (key.startsWith(part)) return part;
  return key;
}

/** Installed on first use, so never part of a run that did not name it. */
const ON_REQUEST: ReadonlySet<string> = new Set(['hive']);

/** The parts `--compare` runs on both builds: the BFF's own rows. */
export const COMPARABLE: ReadonlySet<string> = new Set(['categories', 'categories-apollo-client', 'categories-persisted', 'stages', 'card', 'by-ids', 'list-ids', 'list-cards', 'create', 'feed']);

/**
 * Rounds of floor, warm categories and mercurius at each latency. One run of each moved the same
 * code's ratio to the floor by far more than the target's margin from run to run: a machine's
 * speed moves between windows. The first round is the table's rows in their place; the others
 * follow the latency's scenarios, and the target takes the median of the rounds' ratios. A
 * disturbed window no longer decides the verdict; a process that runs the path slowly throughout
 * still does (docs/performance.md, "What bounds the targets").
 */
const PAIR_ROUNDS = 3;

export interface Profile {
  quick: boolean;
  connections: number;
  warmupSeconds: number;
  measureSeconds: number;
  /** The probes: list cards and its REST floor over PROBE_CONNECTIONS. */
  probeSeconds: number;
  memoryConnections: number;
  memorySeconds: number;
  /** Load seconds before the memory baseline is taken (the heap growing to its working size is not growth). */
  memoryWarmSeconds: number;
  /** RSS swings with every major GC: start and end are the median and the minimum over windows this long. */
  memoryWindowSeconds: number;
  parts: ReadonlySet<string>;
  latenciesMs: number[];
  cpuProfile: boolean;
  /** Node options for the BFF process only, such as `--max-old-space-size=128`. */
  bffNodeArgs: string[];
  /** Also measure a BFF that exports every span. */
  tracing: boolean;
  /** Interleaved rounds of floor, categories and mercurius at each latency; the target is judged on their median ratio. */
  pairRounds: number;
  /** The commit `--compare` measures the working tree against. */
  compare: string | undefined;
  /** Rounds of `--compare` and of the hive part, when given. */
  rounds: number | undefined;
}

function numberOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new Error(`--${name} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

export function readProfile(argv: string[] = process.argv.slice(2)): Profile {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      connections: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      latency: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'bff-node-args': { type: 'string' },
      tracing: { type: 'boolean', default: false },
      compare: { type: 'string' },
      rounds: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const compare = values.compare?.trim();
  if (compare !== undefined && !/^[\w./^~-]{1,100}$/.test(compare)) throw new Error(`--compare takes a commit (a hash, a tag or a branch), got ${JSON.stringify(values.compare)}`);
  const named = values.only?.split(',').map((p) => p.trim());
  for (const part of named ?? []) {
    if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only takes ${PARTS.join(', ')}; got ${JSON.stringify(part)}`);
  }
  const everyPart = PARTS.filter((p) => !ON_REQUEST.has(p) && (compare === undefined || COMPARABLE.has(p)));
  const parts = new Set(named ?? everyPart);
  return {
    quick,
    connections: Math.round(numberOption('connections', values.connections, quick ? 10 : 50, 1, 1000)),
    warmupSeconds: numberOption('warmup', values.warmup, quick ? 0.4 : 2, 0.2, 600),
    measureSeconds: numberOption('duration', values.duration, quick ? 1.2 : compare === undefined ? 10 : 5, 0.5, 600),
    probeSeconds: quick ? 0.8 : 5,
    memoryConnections: quick ? 10 : 50,
    memorySeconds: quick ? 3 : 60,
    memoryWarmSeconds: quick ? 1 : 10,
    memoryWindowSeconds: quick ? 1 : 10,
    parts,
    latenciesMs: (values.latency ?? '0,10').split(',').map((l) => Math.round(numberOption('latency', l.trim(), 0, 0, 10_000))),
    cpuProfile: values.profile ?? false,
    bffNodeArgs: (values['bff-node-args'] ?? '').split(/\s+/).filter(Boolean),
    tracing: values.tracing ?? false,
    pairRounds: quick ? 1 : PAIR_ROUNDS,
    compare,
    rounds: values.rounds === undefined ? undefined : Math.round(numberOption('rounds', values.rounds, 1, 1, 50)),
  };
}
