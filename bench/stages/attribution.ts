import type { CpuProfile, CpuProfileNode } from './inspector.js';

/**
 * Where a request's CPU goes, by stage: each sample of a CPU profile is given to the stage of the
 * innermost frame on its stack that the table below names. So a native leaf (a `writev` system
 * call, `JSON.parse`, an HMAC) counts for the stage that called it, and code of no stage (an
 * event emitter, a microtask queue) for the stage that ran it. A sample whose stack names no stage
 * is "other", and the report lists what it was; V8's own "(garbage collector)" has a row of its
 * own. The table is keyed by where a frame's code lives: the product's modules by their path
 * under `src/` (the built `dist/src/*.js` are one file per source, so a frame's URL names it), a
 * package by its name, Node's own modules by their `node:` name, each optionally narrowed to some
 * functions. Paths of older trees are listed too, so `--compare` splits both builds.
 */

export const STAGES = ['HTTP parse', 'body read', 'caller and token', 'policies', 'cache key and lookup', 'write', 'request log line'] as const;
export type Stage = (typeof STAGES)[number];

/** A rule's verdict: a stage, or `other` with what it is (the walk stops there, so no caller claims it). */
type Verdict = Stage | { other: string };

interface Rule {
  verdict: Verdict;
  /** A frame's place (`src/http/body.ts`, `pino`, `node:_http_server`), exactly or by pattern. */
  place: string | RegExp;
  /** Only these functions of the place. */
  functions?: RegExp;
}

const rule = (verdict: Verdict, place: string | RegExp, functions?: RegExp): Rule => ({ verdict, place, ...(functions ? { functions } : {}) });

/** First matching rule wins; more particular rules (by function) come before their place's. */
export const RULES: readonly Rule[] = [
  // The GraphQL handler: one module with several stages in it, told apart by function.
  rule('body read', 'src/server/graphql-handler.ts', /^paramsFrom$/),
  rule('write', 'src/server/graphql-handler.ts', /^(write|send|cachingHeaders|matches|serialize|writeRefusal)$/),
  rule({ other: "the GraphQL handler's own code" }, 'src/server/graphql-handler.ts'),
  // The composition root's callbacks: the caller's token, and the answer's key.
  rule('caller and token', 'src/server/answering.ts', /^(tokenKey|trusts|appTokenKeys)$/),
  rule('cache key and lookup', 'src/server/answering.ts', /^callerKey$/),
  rule('caller and token', 'src/server/bff.ts', /^(callerOf|clientAddress)$/),
  rule('request log line', 'src/server/bff.ts', /^record/),
  rule('request log line', 'node:internal/crypto/random', /^randomUUID$/),

  // An older tree's src/server/http.ts held the whole gate, told apart by function.
  rule('body read', 'src/server/http.ts', /^(checkBodyHeaders|readBody|onData|done|parseJsonBody|fastPathRequest|persistedQueryHash|withDocument|isPlainObject)$/),
  rule('cache key and lookup', 'src/server/http.ts', /^(sharedAnswerFor|rememberedFacts)$/),
  rule('write', 'src/server/http.ts', /^(send|sendJson|sendGraphQLError|graphQLErrorBody)$/),
  rule('request log line', 'src/server/http.ts', /^recordUnexecuted$/),
  rule({ other: "the GraphQL handler's own code" }, 'src/server/http.ts', /^graphql$/),
  rule('HTTP parse', /^src\/server\/(http|http-server)\.ts$/),
  rule('HTTP parse', /^src\/http\/(cors|negotiation|header-choices)\.ts$/),
  rule('HTTP parse', /^node:(internal\/)?url$/),
  rule('HTTP parse', 'node:_http_common', /^(parserOnHeaders|parserOnHeadersComplete|freeParser|prepareError)$/),
  rule('body read', 'node:_http_common', /^(parserOnBody|parserOnMessageComplete)$/),
  rule('body read', 'node:_http_incoming', /^(_read|_dump|_consume|resume|onError)$/),
  rule('HTTP parse', 'node:_http_incoming'),
  rule('write', 'node:_http_server', /^(writeHead|_implicitHeader|resOnFinish|onServerResponseClose|_finish|detachSocket|assignSocket|statusMessage)$/),
  rule('HTTP parse', 'node:_http_server'),
  rule('HTTP parse', 'node:internal/stream_base_commons', /^onStreamRead$/),

  rule('body read', /^src\/(http\/(body|json)|pipeline\/params)\.ts$/),
  rule('body read', 'node:internal/streams/readable'),

  rule('caller and token', /^src\/(http\/(auth|client-address)|server\/callers|cache\/token-verdicts|apps\/app-keys|campaigns\/token-check|partner\/token-gate|secrets\/.*)\.ts$/),
  rule('caller and token', /^src\/server\/auth\.ts$/),

  rule('policies', /^src\/pipeline\/(pipeline|documents|verdicts|rules|trusted-documents|persisted-queries|types|apollo)\.ts$/),
  rule('policies', /^src\/apps\/(rate-limit|scope|gate|trusted-documents)\.ts$/),
  rule('policies', /^src\/graphql\/(limits\/.*|variables|operation-cache|operation-types)\.ts$/),

  rule('cache key and lookup', /^src\/(pipeline\/response-cache|cache\/bounded|bounded\/.*|cache\/category-directory|categories\/directory|feed\/cache|graphql\/shared-answers)\.ts$/),
  rule('cache key and lookup', 'lru-cache'),

  rule('write', /^src\/http\/(answer|compression|respond)\.ts$/),
  rule('write', /^node:(_http_outgoing|net|internal\/streams\/writable|internal\/stream_base_commons)$/),

  rule('request log line', /^src\/(graphql\/request-log|observability\/(logger|metrics|operation-names|outcomes)|graphql\/plugins\/observability|tracing\/.*)\.ts$/),
  rule('request log line', /^(pino|sonic-boom|prom-client|pino-std-serializers|fast-redact|@pinojs\/redact|quick-format-unescaped|thread-stream|atomic-sleep|on-exit-leak-free|safe-stable-stringify|tdigest|bintrees)$/),
];

/**
 * Where a frame's code lives: `src/<path>.ts` for the product's modules (built or not), the package
 * name for a dependency, `node:<module>` for Node's own, `(native)` for code with no script.
 */
export function placeOf(url: string): string {
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return url;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url.slice(url.lastIndexOf('node_modules/') === -1 ? 0 : url.lastIndexOf('node_modules/')));
  if (modules?.[1]) return modules[1];
  const source = /\/(?:dist\/)?(src\/.+)\.[cm]?[jt]s$/.exec(url);
  if (source?.[1]) return `${source[1]}.ts`;
  return url.replace(/^file:\/\//, '');
}

function verdictOf(frame: CpuProfileNode['callFrame']): Verdict | undefined {
  const place = placeOf(frame.url);
  for (const r of RULES) {
    if (typeof r.place === 'string' ? r.place !== place : !r.place.test(place)) continue;
    if (r.functions && !r.functions.test(frame.functionName)) continue;
    return r.verdict;
  }
  return undefined;
}

export type Row = Stage | 'garbage collection' | 'other';
export const ROWS: readonly Row[] = [...STAGES, 'garbage collection', 'other'];

/**
 * Leaves that are the kernel's work, not the process's: a socket's or a file's write system call.
 * The stage that made them keeps them; the report says how much of it they were.
 */
const SYSTEM_CALLS = /^(writev|writeBuffer|writeString|writeUtf8String|writeLatin1String|writeAsciiString|writeUcs2String)$/;

export interface StageSplit {
  /** Sampled time the main thread was busy, in microseconds (idle left out). */
  busyUs: number;
  byStage: Record<Row, number>;
  /** Of each stage's time, what was spent in write system calls. */
  systemCalls: Record<Row, number>;
  /** What "other" was: its biggest parts, by what claimed them or by the leaf frame's place. */
  otherParts: { what: string; us: number }[];
}

const V8_ROOTS: Record<string, string> = { '(program)': 'V8 and native code outside any script ((program))', '(root)': '(root)' };

type Decision = Stage | 'garbage collection' | { other: string } | 'idle';

/** Self time of every sample, given to the innermost stage on its stack. */
export function splitByStage(profile: CpuProfile): StageSplit {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const zero = () => Object.fromEntries(ROWS.map((s) => [s, 0])) as Record<Row, number>;
  const byStage = zero();
  const systemCalls = zero();
  const other = new Map<string, number>();
  const decided = new Map<number, Decision>();
  const decide = (id: number): Decision => {
    const known = decided.get(id);
    if (known) return known;
    const leaf = nodes.get(id)!;
    let verdict: Decision | undefined;
    if (leaf.callFrame.functionName === '(idle)') verdict = 'idle';
    else if (leaf.callFrame.functionName === '(garbage collector)') verdict = 'garbage collection';
    for (let at: number | undefined = id; verdict === undefined && at !== undefined; at = parent.get(at)) verdict = verdictOf(nodes.get(at)!.callFrame);
    if (verdict === undefined) {
      const name = leaf.callFrame.functionName;
      verdict = { other: V8_ROOTS[name] ?? `${name || '(anonymous)'} (${placeOf(leaf.callFrame.url)})` };
    }
    decided.set(id, verdict);
    return verdict;
  };
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const verdict = decide(id);
    if (verdict === 'idle') return;
    busyUs += us;
    const row: Row = typeof verdict === 'string' ? verdict : 'other';
    byStage[row] += us;
    if (SYSTEM_CALLS.test(nodes.get(id)!.callFrame.functionName) && nodes.get(id)!.callFrame.url === '') systemCalls[row] += us;
    if (typeof verdict !== 'string') other.set(verdict.other, (other.get(verdict.other) ?? 0) + us);
  });
  const otherParts = [...other.entries()].sort((a, b) => b[1] - a[1]).map(([what, us]) => ({ what, us }));
  return { busyUs, byStage, systemCalls, otherParts };
}
