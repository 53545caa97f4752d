/**
 * The layering of src/, checked by `npm run layers` (part of `npm test`). Modules are layered
 * downward; docs/architecture.md says what each folder owns and why the layers are these.
 *
 *   text, bounded          quoting and the text rule; the bounded stores: import nothing of ours
 *   secrets                the keyed hashes of tokens and app keys: import only the bounded stores
 *   campaign-api           the REST contract and its client
 *   emulator               the REST API, from the contract alone
 *   observability, tracing logs, metrics, spans
 *   http                   HTTP primitives (bodies, negotiation, CORS, client address)
 *   graphql                the GraphQL engine: errors, scalars, limits, pagination, the request log
 *   pipeline               the request pipeline: policies, documents, executors, response cache
 *   schema                 the request context and the generated resolver types
 *   domains                campaigns, categories, feed, apps, subscriptions (live status)
 *   server                 the composition root: wires everything; main.ts starts it
 *
 * Also part of `npm run layers`: scripts/layer-rules.ts, for what a module does with what it
 * imports (a Map or Set kept beyond one call outside src/bounded/; createHash and createHmac
 * outside src/secrets/).
 */
const DOMAINS = '^src/(campaigns|categories|feed|apps|subscriptions)/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycles, type-only imports included.', from: {}, to: { circular: true } },
    {
      name: 'text-imports-nothing',
      severity: 'error',
      from: { path: '^src/text/' },
      to: { path: '^src/', pathNot: '^src/text/' },
    },
    {
      name: 'bounded-imports-nothing',
      severity: 'error',
      comment: 'The bounded stores sit below every layer, so that any of them can keep things through them.',
      from: { path: '^src/bounded/' },
      to: { path: '^src/', pathNot: '^src/bounded/' },
    },
    {
      name: 'secrets-below-everything-else',
      severity: 'error',
      comment: 'Every layer makes its keyed hashes through src/secrets/, so it knows nothing above the bounded stores.',
      from: { path: '^src/secrets/' },
      to: { path: '^src/', pathNot: '^src/(secrets|bounded)/' },
    },
    {
      name: 'one-bounded-memory',
      severity: 'error',
      comment: 'What a client can grow is kept in a BoundedMemory (src/bounded/), never in an lru-cache of its own.',
      from: { path: '^src/', pathNot: '^src/bounded/' },
      to: { path: '^node_modules/lru-cache/' },
    },
    {
      name: 'redis-only-in-the-cache',
      severity: 'error',
      comment:
        "Redis is written only through src/cache/: the shared cache's namespaces (keyv over a store whose every SET has its PX, src/cache/store.ts) and the feed's lock and counters (SET NX PX, a counter's PEXPIRE). No keyv and no client of one's own elsewhere.",
      from: { path: '^src/', pathNot: '^src/cache/' },
      to: { path: '^node_modules/(keyv|@keyv/|redis|@redis/|ioredis)' },
    },
    {
      name: 'redis-connections-in-the-cache',
      severity: 'error',
      comment:
        "A Redis connection is opened by the shared cache and the fleet's coordination, and by the live status bus, whose scripts give each key they make an expiry (the lease SET PX, the record PEXPIRE, renewed by the lease's holder): every key has one, as test/server/redis-keys.test.ts checks after real traffic.",
      from: { path: '^src/', pathNot: ['^src/cache/(store|coordination|redis-[a-z]+)\\.ts$', '^src/subscriptions/redis-bus\\.ts$'] },
      to: { path: '^src/cache/redis-(connection|common|sentinel|cluster)\\.ts$' },
    },
    {
      name: 'emulator-reads-only-the-contract',
      severity: 'error',
      comment: 'The emulator implements the REST API from its contract; it knows nothing of the BFF.',
      from: { path: '^src/emulator/', pathNot: '^src/emulator/main\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/emulator/', '^src/text/', '^src/campaign-api/(index|operations|openapi|enums|field-rules|campaign-fields|issue-messages|errors|api)\\.ts$'] },
    },
    {
      name: 'contract-is-not-the-client',
      severity: 'error',
      comment: 'The contract files the emulator reads stay free of the HTTP client and its tracing.',
      from: { path: '^src/campaign-api/(index|operations|openapi|enums|field-rules|campaign-fields|issue-messages|errors|api)\\.ts$' },
      to: { path: '^src/(tracing|observability)/|^src/campaign-api/(http-client|backend-call|transport|resilience|envelope|answer-check)\\.ts$' },
    },
    {
      name: 'campaign-api-below-graphql',
      severity: 'error',
      from: { path: '^src/campaign-api/' },
      to: { path: '^src/', pathNot: ['^src/campaign-api/', '^src/text/', '^src/tracing/'] },
    },
    {
      name: 'infrastructure-below-graphql',
      severity: 'error',
      comment: 'Logs, metrics, spans and HTTP primitives know no GraphQL, no pipeline and no domain.',
      from: { path: '^src/(observability|tracing|http)/' },
      to: { path: ['^src/(graphql|pipeline|schema|server|cache)/', DOMAINS] },
    },
    {
      name: 'engine-knows-no-domain',
      severity: 'error',
      comment: 'The GraphQL engine and the pipeline serve any schema: domains plug into them, never the reverse.',
      from: { path: '^src/(graphql|pipeline)/' },
      to: { path: ['^src/(schema|server|cache|campaign-api)/', DOMAINS] },
    },
    {
      name: 'pipeline-above-engine',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: '^src/pipeline/' },
    },
    {
      name: 'only-main-starts-the-server',
      severity: 'error',
      comment: 'The composition root wires modules; nothing but the process entry depends on it.',
      from: { path: '^src/', pathNot: ['^src/server/', '^src/main\\.ts$'] },
      to: { path: '^src/server/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
