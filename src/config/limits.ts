import { int, section } from './setting.js';

export const limits = section({
  title: 'Limits',
  about: 'What one request may ask and cost: its time, its body, the size and shape of its document, the backend calls and objects it may cause, and the batches its work is cut into.',
  shape: {
    REQUEST_TIMEOUT_MS: int(100, 300_000, 15_000, { description: 'The deadline of one GraphQL request.' }),
    BODY_LIMIT_BYTES: int(1024, 64 * 1024 * 1024, 5 * 1024 * 1024, {
      description:
        "The largest request body of a partner (fits `addPins` with 100,000 pins); larger: 413. A body over `PUBLIC_BODY_LIMIT_BYTES` is read only once the campaign API has accepted the partner's token.",
    }),
    PUBLIC_BODY_LIMIT_BYTES: int(1024, 64 * 1024 * 1024, 64 * 1024, {
      description: 'The largest request body of an app key (`X-App-Key`) or of a request without a partner token; larger: 413.',
    }),
    PARTNER_TOKEN_MAX_LENGTH: int(16, 8000, 2048, {
      description: 'The longest partner token taken: a longer `Authorization` header is refused (`UNAUTHENTICATED`) before anything reads it or calls the campaign API.',
    }),
    MAX_TOKENS: int(10, 1_000_000, 5000, { description: 'GraphQL document tokens (pass pins as variables, not inline).' }),
    MAX_DEPTH: int(1, 100, 10, { description: 'Selection depth.' }),
    MAX_ALIASES: int(0, 1000, 15, { description: 'Aliases per operation, `__typename` included.' }),
    MAX_DIRECTIVES: int(0, 1000, 10, { description: 'Directives per operation.' }),
    MAX_BACKEND_CALLS: int(1, 100_000, 500, { description: 'Backend calls an operation may cause (estimated before it runs).' }),
    MAX_LIST_NODES: int(1, 10_000_000, 20_000, { description: 'Objects an operation may return (from `first`, `ids`).' }),
    PIN_CHUNK_SIZE: int(1, 100_000, 10_000, { description: 'Pins per `add-pins` call to the backend.' }),
    MAX_PINS_PER_MUTATION: int(1, 1_000_000, 100_000, { description: 'Pins one `addPins` takes.' }),
    LOADER_CONCURRENCY: int(1, 1000, 100, { description: 'Concurrent backend calls one request fans out to: as many as the largest page holds, so a full page of cards is one round of calls after the list.' }),
    MAX_STATUS_SCAN: int(100, 1_000_000, 10_000, { description: 'Campaigns the `status` filter of `campaigns` may read (100 per backend call).' }),
  },
  check: (e) =>
    e.PUBLIC_BODY_LIMIT_BYTES > e.BODY_LIMIT_BYTES ? [`PUBLIC_BODY_LIMIT_BYTES=${e.PUBLIC_BODY_LIMIT_BYTES} must be at most BODY_LIMIT_BYTES=${e.BODY_LIMIT_BYTES}`] : [],
  build: (e) => ({
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    publicBodyLimitBytes: e.PUBLIC_BODY_LIMIT_BYTES,
    partnerTokenMaxLength: e.PARTNER_TOKEN_MAX_LENGTH,
    maxTokens: e.MAX_TOKENS,
    maxDepth: e.MAX_DEPTH,
    maxAliases: e.MAX_ALIASES,
    maxDirectives: e.MAX_DIRECTIVES,
    maxBackendCalls: e.MAX_BACKEND_CALLS,
    maxListNodes: e.MAX_LIST_NODES,
    pinChunkSize: e.PIN_CHUNK_SIZE,
    maxPinsPerMutation: e.MAX_PINS_PER_MUTATION,
    loaderConcurrency: e.LOADER_CONCURRENCY,
    maxStatusScan: e.MAX_STATUS_SCAN,
  }),
});
