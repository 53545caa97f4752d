/**
 * The layering of src/, checked by `npm run layers` (part of `npm test`). Folders are layered
 * as below, lowest first, and import downward only: the rules here say where each must not
 * reach, and scripts/layer-rules.ts that no folders import each other, even through others.
 * docs/architecture.md says what each folder owns and why the layers are these.
 *
 *   text, bounded, errors  quoting and the text rule; the bounded stores; errors made without a
 *                          stack: import nothing of ours
 *   secrets                the keyed hashes of tokens and app keys: import only the bounded stores
 *   tracing                OpenTelemetry: spans, their bounds, propagation
 *   campaign-api           the REST contract and its client (traced)
 *   observability          logs, metrics (which count the client's calls)
 *   http, cache            HTTP primitives; the shared store, Redis, token verdicts, coordination
 *   config                 the configuration (config/, config.ts, config-names.ts): every setting,
 *                          declared once; reads the limits the layers below declare
 *   emulator               the REST API, from the contract alone
 *   graphql                the GraphQL engine: errors, scalars, limits, pagination, the request log
 *   pipeline               the request pipeline: policies, documents, executors, response cache
 *   partner                one partner's access to the campaign API: bound API, loaders, token gate
 *   schema                 the generated resolver types, their models, the request context's type
 *   domains                categories, campaigns < feed, subscriptions < apps (DOMAIN_IMPORTS below)
 *   server                 the composition root: wires everything; main.ts starts it
 *
 * Also part of `npm run layers`: scripts/layer-rules.ts, for what a module does with what it
 * imports and for folders: no cycle between folders (src/ collapsed to one node per folder, type
 * imports included), no re-export of what another folder owns, a Map or Set kept beyond one call
 * only in src/bounded/, createHash and createHmac only in src/secrets/, the outage error made
 * and the circuit breaker told only where a refusal is told apart from an outage; and
 * scripts/comment-paths.ts, for files named in comments, which must exist.
 */

/**
 * The domains and, for each, the other domains it may import: declared here once. Every other
 * pair is refused, so the domains stay layered (categories and campaigns at the bottom, apps on
 * top) and a new dependency between two of them is a decision made here.
 */
const DOMAIN_IMPORTS = {
  categories: [],
  campaigns: [],
  feed: ['campaigns'],
  subscriptions: ['campaigns'],
  apps: ['categories', 'feed'],
};
const DOMAIN_NAMES = Object.keys(DOMAIN_IMPORTS);
const DOMAINS = `^src/(${DOMAIN_NAMES.join('|')})/`;
/** The configuration's layer: its folder and its two files at the root of src/. */
const CONFIG = '^src/(config/|config\\.ts$|config-names\\.ts$)';

const domainRules = DOMAIN_NAMES.flatMap((domain) => {
  const refused = DOMAIN_NAMES.filter((other) => other !== domain && !DOMAIN_IMPORTS[domain].includes(other));
  if (refused.length === 0) return [];
  const may = DOMAIN_IMPORTS[domain];
  return [
    {
      name: `domain-${domain}`,
      severity: 'error',
      comment: `Among the domains, ${domain}/ imports ${may.length ? `only ${may.join(' and ')}` : 'none'} (DOMAIN_IMPORTS).`,
      from: { path: `^src/${domain}/` },
      to: { path: `^src/(${refused.join('|')})/` },
    },
  ];
});

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
      name: 'errors-imports-nothing',
      severity: 'error',
      comment: 'How an error about a request is made without a stack sits below every layer that makes one, the REST client included.',
      from: { path: '^src/errors/' },
      to: { path: '^src/', pathNot: '^src/errors/' },
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
      to: { path: '^src/', pathNot: ['^src/emulator/', '^src/text/', '^src/errors/', '^src/campaign-api/(index|operations|openapi|enums|field-rules|campaign-fields|issue-messages|errors|api)\\.ts$'] },
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
      to: { path: '^src/', pathNot: ['^src/campaign-api/', '^src/text/', '^src/tracing/', '^src/errors/', '^src/bounded/'] },
    },
    {
      name: 'tracing-below-the-client',
      severity: 'error',
      comment: 'The REST client traces its calls and the metrics count them: tracing imports nothing of either, nor of the configuration that reads its settings.',
      from: { path: '^src/tracing/' },
      to: { path: '^src/', pathNot: '^src/(tracing|text|bounded)/' },
    },
    {
      name: 'infrastructure-below-graphql',
      severity: 'error',
      comment: 'Logs, metrics, spans and HTTP primitives know no GraphQL, no pipeline and no domain.',
      from: { path: '^src/(observability|tracing|http)/' },
      to: { path: ['^src/(graphql|pipeline|partner|schema|server|cache)/', DOMAINS] },
    },
    {
      name: 'cache-below-the-engine',
      severity: 'error',
      comment:
        'The shared store, Redis, the token verdicts and the coordination serve every layer above them: they import only the infrastructure below (text, bounded stores, keyed hashes, logs, spans).',
      from: { path: '^src/cache/' },
      to: { path: '^src/', pathNot: '^src/(cache|text|bounded|secrets|observability|tracing)/' },
    },
    {
      name: 'config-above-infrastructure',
      severity: 'error',
      comment:
        'The configuration declares the settings of the infrastructure and reads the limits it declares (a trace text bound, the Redis URL forms): the infrastructure is handed its settings and never imports the configuration back.',
      from: { path: '^src/(text|bounded|errors|secrets|tracing|campaign-api|observability|http|cache)/' },
      to: { path: CONFIG },
    },
    {
      name: 'config-below-its-readers',
      severity: 'error',
      comment: 'The configuration knows nothing of the engine, the domains or the server that read it.',
      from: { path: CONFIG },
      to: { path: ['^src/(emulator|graphql|pipeline|partner|schema|server)/', '^src/main\\.ts$', DOMAINS] },
    },
    {
      name: 'engine-knows-no-domain',
      severity: 'error',
      comment: 'The GraphQL engine and the pipeline serve any schema: domains plug into them, never the reverse.',
      from: { path: '^src/(graphql|pipeline)/' },
      to: { path: ['^src/(partner|schema|server|cache|campaign-api)/', DOMAINS] },
    },
    {
      name: 'schema-below-the-domains',
      severity: 'error',
      comment:
        "A partner's access to the campaign API and the schema's types (resolver types, models, the request context) are what every domain's resolvers read: they import no domain and not the composition root.",
      from: { path: '^src/(partner|schema)/' },
      to: { path: ['^src/server/', DOMAINS] },
    },
    {
      name: 'partner-below-the-schema',
      severity: 'error',
      from: { path: '^src/partner/' },
      to: { path: '^src/schema/' },
    },
    ...domainRules,
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
