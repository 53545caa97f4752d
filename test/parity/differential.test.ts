import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe as group, expect, it } from 'vitest';
import { MODES, closePairs, startPairs, type Pairs } from './instances.js';
import { MUTATIONS, QUERIES, SUBSCRIPTIONS, applyChange, changes, describe, type Documented } from './support.js';
import {
  CALLERS,
  agree,
  agreeGet,
  fitsGet,
  headersOf,
  noneRunning,
  sameOutcome,
  send,
  subscribe,
  type Bff,
  type LiveOutcome,
  type Observed,
  type Payload,
  type Stream,
} from './transports.js';

/**
 * The paths a request can take must agree: a differential test, property-based (fast-check), over
 * every documented operation (docs/operations) and every document of the client kit × the callers
 * (a partner token, an app key, none, a token the campaign API refuses) × the transports (POST,
 * GET, WebSocket, SSE) × how the document is named (its text, its id in the kit's manifest, its
 * hash as a persisted query) × the variables as documented or broken (a wrong type, a huge
 * string, null, one missing, one extra) × the Accept headers clients send, in development and in
 * production (test/parity/instances.ts).
 *
 * Two instances share one emulator: one with the compiled path (COMPILED_OPERATIONS=true: Apollo
 * runs a document's first request, graphql-jit the next ones), one without (Apollo runs every
 * request). Each gets the same requests in the same order, so each step of the sequence must be
 * answered alike by both (status, headers, body, log line but for its path, backend calls
 * included); and within an instance, a document's first run (cold) and a later one (warm:
 * compiled or remembered), POST and GET, WebSocket and SSE must be answered alike wherever the
 * same answer is expected (the streams differ in framing: their errors and results are compared).
 *
 * Runs with both settings of the compiled path itself, so it runs in the default vitest project
 * only. The seed is fixed, so CI runs the same requests each time; a failure names the seed and
 * fast-check's path of the failing run, the request and the answers that disagree.
 * PARITY_SEED=<seed> PARITY_PATH=<path> replays it (with -t naming the property), PARITY_SEED
 * alone tries other requests, PARITY_SCALE=<n> runs n times as many.
 */
const SEED = Number(process.env.PARITY_SEED ?? 20_261_125);
const SCALE = Number(process.env.PARITY_SCALE ?? 1);
const PATH = process.env.PARITY_PATH;

let run = 0;
/** A token the campaign API refuses, new for each run: each instance's first request is the first to meet it. */
const refusedToken = () => `refused-token-${run}`;

/** How a run names its document: by its text, by its id in the kit's manifest, or by its hash as a persisted query. */
type Naming = 'text' | 'id' | 'hash';

/**
 * What a run sends first and later. A text is made new for the run (a comment names it), so its
 * first request is the document's first. A kit document by id is met cold once by each instance.
 * A persisted query is sent first with its text (which registers it once its request is valid),
 * then by its hash alone.
 */
function payloadsOf(operation: Documented, variables: Record<string, unknown>, naming: Naming): { first: Payload; later: Payload } {
  if (naming === 'id' && operation.documentId) {
    const byId = { documentId: operation.documentId, variables };
    return { first: byId, later: byId };
  }
  const query = `# parity run ${run}\n${operation.query}`;
  if (naming === 'text') return { first: { query, variables }, later: { query, variables } };
  const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
  return { first: { query, variables, extensions }, later: { variables, extensions } };
}

/**
 * Whether a document's first request and a later one must be answered alike. They need not when
 * the first sent the text of a persisted query where only trusted documents run (an app in
 * production): the text is refused for what it is and not registered, so the hash alone is not
 * found later; that is checked instead.
 */
function firstIsLikeLater(request: string, naming: Naming, first: [string, Observed], later: [string, Observed]): boolean {
  const codes = (observed: Observed) => observed.log.errorCodes;
  if (naming !== 'hash' || !isDeepStrictEqual(codes(first[1]), ['TRUSTED_DOCUMENT_REQUIRED'])) return true;
  if (!isDeepStrictEqual(codes(later[1]), ['PERSISTED_QUERY_NOT_FOUND'])) {
    throw new Error(`${later[0]} found a persisted query whose text ${first[0]} was refused\nrequest: ${request}\n${describe({ first: first[1], later: later[1] })}`);
  }
  return false;
}

/** The Accept headers clients send (Apollo Client's first), and none. */
const ACCEPTS = [undefined, 'application/graphql-response+json,application/json;q=0.9', 'application/json', 'application/graphql-response+json', '*/*'];

const byName = (operations: readonly Documented[]) => new Map(operations.map((o) => [o.name, o]));

/** A request drawn by fast-check: which operation, who sends it, with which variables, how. */
const requestsOf = (operations: readonly Documented[], sizes: readonly number[]) =>
  fc.constantFrom(...operations).chain((operation) =>
    fc.record({
      mode: fc.constantFrom(...MODES),
      operation: fc.constant(operation.name),
      caller: fc.constantFrom(...CALLERS),
      change: changes(operation, sizes),
      first: fc.constantFrom<'POST' | 'GET'>('POST', 'GET'),
      naming: fc.constantFrom<Naming>(...(operation.documentId ? (['text', 'id', 'hash'] as const) : (['text', 'hash'] as const))),
      accept: fc.constantFrom(...ACCEPTS),
    }),
  );

/**
 * Bounded, so the three properties take well under a minute. No shrinking: the instances keep
 * state from run to run (caches, token verdicts), so the failing run itself is the one to read.
 */
const runOptions = (numRuns: number) => ({ seed: SEED, numRuns: Math.ceil(numRuns * SCALE), endOnFailure: true, ...(PATH ? { path: PATH } : {}) });

const debug = (...what: unknown[]) => process.env.PARITY_DEBUG && console.log(...what.map((w) => (typeof w === 'string' ? w : describe(w).slice(0, 300))));

group('queries and mutations, with the compiled path and without', () => {
  let pairs: Pairs;
  beforeAll(async () => {
    pairs = await startPairs();
  });
  afterAll(() => closePairs(pairs));

  const queries = byName(QUERIES);
  const paths = new Set<string | undefined>();

  /** One instance's answers to a query: its first run, then once warm by POST and by GET. */
  async function querySteps(bff: Bff, operation: Documented, payloads: { first: Payload; later: Payload }, headers: Record<string, string>, first: 'POST' | 'GET') {
    const coldBy = first === 'GET' && fitsGet(bff, payloads.first) ? 'GET' : 'POST';
    const cold = await send(bff, coldBy, payloads.first, headers);
    // The document run once more with the variables it is documented with, so what follows meets it warm.
    await send(bff, 'POST', { ...payloads.first, variables: operation.variables }, headersOf('partner', refusedToken()));
    const warm = await send(bff, 'POST', payloads.later, headers);
    const get = fitsGet(bff, payloads.later) ? await send(bff, 'GET', payloads.later, headers) : undefined;
    return { coldBy, cold, warm, get };
  }

  it('answer a query alike: its first run and later ones, by POST and GET, with the compiled path and without', async () => {
    await fc.assert(
      fc.asyncProperty(requestsOf(QUERIES, [1000, 100_000, 1_000_000]), async ({ mode, operation: name, caller, change, first, naming, accept }) => {
        run++;
        const pair = pairs[mode];
        const operation = queries.get(name)!;
        const payloads = payloadsOf(operation, applyChange(operation.variables, change), naming);
        const request = describe({ mode, operation: name, caller, change, first, naming, accept, variables: payloads.first.variables });
        const headers = { ...headersOf(caller, refusedToken()), ...(accept ? { accept } : {}) };
        // The instances are independent and queries change no data: both at once.
        const [a, b] = await Promise.all([querySteps(pair.compiled, operation, payloads, headers, first), querySteps(pair.plain, operation, payloads, headers, first)]);
        for (const observed of [a.cold, a.warm, b.cold, b.warm]) paths.add(observed.path);
        debug(name, caller, first, change, a.cold.path, a.warm.path, b.warm.path, a.cold.status, a.cold.body.slice(0, 200));
        const coldName = `${a.coldBy} first`;
        // Each step alike on both instances.
        agree(request, [`compiled: ${coldName}`, a.cold], [`plain: ${coldName}`, b.cold], { sameStep: true });
        agree(request, ['compiled: POST warm', a.warm], ['plain: POST warm', b.warm], { sameStep: true });
        if (a.get && b.get) agree(request, ['compiled: GET warm', a.get], ['plain: GET warm', b.get], { sameStep: true });
        // Within an instance, the first run as the later ones, GET as POST.
        for (const [bff, steps] of [['compiled', a], ['plain', b]] as const) {
          const warm: [string, Observed] = [`${bff}: POST warm`, steps.warm];
          const cold: [string, Observed] = [`${bff}: ${coldName}`, steps.cold];
          if (!firstIsLikeLater(request, naming, cold, warm)) continue;
          if (steps.coldBy === 'GET') agreeGet(request, warm, cold, caller);
          else agree(request, cold, warm);
          if (steps.get) agreeGet(request, warm, [`${bff}: GET warm`, steps.get], caller);
        }
      }),
      runOptions(160),
    );
    // Each executor was among the paths compared.
    expect([...paths]).toEqual(expect.arrayContaining(['apollo', 'compiled', 'remembered', 'gate']));
  }, 600_000);

  const mutations = byName(MUTATIONS);

  it('answer a mutation alike: its first run and a later one, with the compiled path and without, on the same data', async () => {
    const create = MUTATIONS.find((o) => o.name === 'create-campaign')!;
    await fc.assert(
      fc.asyncProperty(requestsOf(MUTATIONS, [1000, 1_000_000]), async ({ mode, operation: name, caller, change, naming, accept }) => {
        run++;
        const pair = pairs[mode];
        const operation = mutations.get(name)!;
        const payloads = payloadsOf(operation, applyChange(operation.variables, change), naming);
        const request = describe({ mode, operation: name, caller, change, naming, accept, variables: payloads.first.variables });
        const headers = { ...headersOf(caller, refusedToken()), ...(accept ? { accept } : {}) };
        const partner = headersOf('partner', refusedToken());
        // The demo data as it starts; update-campaign changes the campaign create-campaign makes.
        const fresh = async () => {
          await pair.stack.admin('reset', {});
          if (name === 'update-campaign') await send(pair.compiled, 'POST', { query: create.query, variables: create.variables }, partner);
        };
        const steps = async (bff: Bff) => {
          await fresh();
          const cold = await send(bff, 'POST', payloads.first, headers);
          await fresh();
          await send(bff, 'POST', { ...payloads.first, variables: operation.variables }, partner);
          await fresh();
          return { cold, warm: await send(bff, 'POST', payloads.later, headers) };
        };
        const a = await steps(pair.compiled);
        const b = await steps(pair.plain);
        debug(name, caller, change, a.cold.path, a.warm.path, a.cold.status, a.cold.body.slice(0, 200));
        agree(request, ['compiled: POST first', a.cold], ['plain: POST first', b.cold], { sameStep: true });
        agree(request, ['compiled: POST warm', a.warm], ['plain: POST warm', b.warm], { sameStep: true });
        const [cold, warm]: [string, Observed][] = [['compiled: POST first', a.cold], ['compiled: POST warm', a.warm]];
        if (firstIsLikeLater(request, naming, cold!, warm!)) agree(request, cold!, warm!);
      }),
      runOptions(40),
    );
  }, 600_000);
});

/** The documented subscription, or one whose document is broken (for what each path says of it). */
const DOCUMENTS: Record<string, (query: string) => string> = {
  'as documented': (query) => query,
  'an unknown field': (query) => query.replace('previousStatus', 'previousStatuz'),
  'a syntax error': (query) => query.slice(0, query.lastIndexOf('}')),
  'an unknown variable type': (query) => query.replace('[ID!]', '[Identifier!]'),
};

group('subscriptions, over WebSocket, SSE and POST', () => {
  let pairs: Pairs;
  beforeAll(async () => {
    pairs = await startPairs();
  });
  afterAll(() => closePairs(pairs));
  const subscriptions = byName(SUBSCRIPTIONS);

  it('are answered alike by both streams, cold and warm, and refused by POST as the streams refuse the same document', async () => {
    const kinds = new Set<string>();
    const requests = fc.constantFrom(...SUBSCRIPTIONS).chain((operation) =>
      fc.record({
        mode: fc.constantFrom(...MODES),
        operation: fc.constant(operation.name),
        caller: fc.constantFrom(...CALLERS),
        document: fc.constantFrom(...Object.keys(DOCUMENTS)),
        // Within the streams' 64 KB message limit, which refuses larger ones as a transport.
        change: changes(operation, [1000, 30_000]),
        first: fc.constantFrom<Stream>('websocket', 'sse'),
        byId: operation.documentId ? fc.boolean() : fc.constant(false),
      }),
    );
    await fc.assert(
      fc.asyncProperty(requests, async ({ mode, operation: name, caller, document, change, first, byId }) => {
        run++;
        const pair = pairs[mode];
        const operation = subscriptions.get(name)!;
        const variables = applyChange(operation.variables, change);
        const sentById = byId && document === 'as documented';
        // By id, with the empty text graphql-ws's protocol wants (its `query` is a string).
        const payload = sentById ? { query: '', documentId: operation.documentId!, variables } : { query: `# parity run ${run}\n${DOCUMENTS[document]!(operation.query)}`, variables };
        const request = describe({ mode, operation: name, caller, document, change, first, byId: sentById, variables });
        const headers = headersOf(caller, refusedToken());
        const other: Stream = first === 'websocket' ? 'sse' : 'websocket';
        const outcomes: [string, LiveOutcome][] = [];
        // On the compiled instance: the first stream cold, the other warm, the first again; on the other instance, the first cold.
        for (const [bff, stream, when] of [
          [pair.compiled, first, 'cold'],
          [pair.compiled, other, 'warm'],
          [pair.compiled, first, 'warm'],
          [pair.plain, first, 'cold'],
        ] as const) {
          outcomes.push([`${bff.name}: ${stream} ${when}`, await subscribe(stream, bff, headers, payload)]);
          if (!(await noneRunning(bff))) throw new Error(`a subscription outlived its connection\nrequest: ${request}`);
        }
        debug(request, outcomes);
        for (const [, outcome] of outcomes) kinds.add(Object.keys(outcome)[0]!);
        const fail = (why: string, extra: Record<string, unknown> = {}) => new Error(`${why}\nrequest: ${request}\n${describe({ ...Object.fromEntries(outcomes), ...extra })}`);
        const [reference] = outcomes;
        for (const outcome of outcomes.slice(1)) if (!sameOutcome(reference![1], outcome[1])) throw fail(`${reference![0]} and ${outcome[0]} disagree`);

        // POST runs no subscription: both instances refuse a valid document for that, an invalid one for what is wrong with it.
        const posts = [await send(pair.compiled, 'POST', payload, headers), await send(pair.plain, 'POST', payload, headers)];
        agree(request, ['compiled: POST', posts[0]!], ['plain: POST', posts[1]!], { sameStep: true });
        const streamed = reference![1];
        if ('errors' in streamed) {
          const errors = JSON.parse(posts[0]!.body).errors;
          const servedElsewhere = posts[0]!.status === 400 && /^Subscriptions are served over WebSocket/.test(errors[0].message);
          const documentRefusal = (streamed.errors as Array<{ extensions?: { code?: string } }>).some((e) => ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED'].includes(e.extensions?.code ?? ''));
          if (servedElsewhere === documentRefusal || (documentRefusal && (posts[0]!.status !== 400 || JSON.stringify(errors) !== JSON.stringify(streamed.errors)))) {
            throw fail('POST disagrees with the streams', { post: posts[0] });
          }
        }
      }),
      runOptions(36),
    );
    // Refusals of the caller, of the request, and subscriptions that ran were among the outcomes compared.
    expect([...kinds]).toEqual(expect.arrayContaining(['refused', 'errors', 'running']));
  }, 600_000);
});
