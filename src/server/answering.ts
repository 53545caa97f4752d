import { ApolloServer, type BaseContext } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Apps } from '../apps/index.js';
import type { CacheStore } from '../cache/store.js';
import type { TokenVerdicts } from '../cache/token-verdicts.js';
import type { Config } from '../config.js';
import { keptCopiesAllowance } from '../http/compression.js';
import type { ErrorFormatter } from '../graphql/errors.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { apolloExecution, type ApolloExecution } from '../pipeline/apollo.js';
import { createPersistedQueries, PERSISTED_QUERY_BOUNDS } from '../pipeline/persisted-queries.js';
import { createPipeline, type Pipeline } from '../pipeline/pipeline.js';
import { createResponseCache, type ResponseCache } from '../pipeline/response-cache.js';
import { cost, documentLimits, operationTypes, schemaPrivacy, streamCallers, tokenLimit, variables } from '../pipeline/rules.js';
import { trustedDocumentsPolicy } from '../pipeline/trusted-documents.js';
import type { AppCaller, Caller, Policy } from '../pipeline/types.js';
import type { TokenCheck } from '../campaigns/token-check.js';

/**
 * Bytes of answers (with their keys) remembered at most, the least recently used going first:
 * enough for the pages of a few apps and the shared directory; past it an answer is executed.
 */
export const RESPONSE_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** Bytes of parsed documents kept at most: the pipeline's, which every executor reads. */
const DOCUMENTS_MAX_BYTES = 32 * 1024 * 1024;

/** Bytes of the operation policies' verdicts kept, by the variables' values they were given. */
const VERDICTS_MAX_BYTES = 4 * 1024 * 1024;

export interface AnsweringOptions {
  config: Config;
  schema: GraphQLSchema;
  apps: Apps;
  cache: CacheStore;
  verdicts: TokenVerdicts;
  metrics: Metrics;
  logger: Logger;
  formatter: ErrorFormatter;
  /** The process's one check of a partner token (campaigns/token-check.ts). */
  checkToken: TokenCheck;
}

export interface Answering<Context extends BaseContext> {
  pipeline: Pipeline;
  responses: ResponseCache;
  apollo: ApolloServer<Context>;
  execution: ApolloExecution<Context>;
}

/**
 * Every rule that decides whether and how a request is answered, once, for every path; the
 * answers remembered after them; and Apollo Server as the executor of a document's first run.
 */
export async function createAnswering<Context extends BaseContext>(
  options: AnsweringOptions,
  reportErrors: (contextValue: Context, errors: readonly GraphQLError[]) => void,
): Promise<Answering<Context>> {
  const { config, schema, apps, verdicts, metrics, logger, formatter } = options;
  const production = config.mode === 'production';
  const policies: Policy[] = [
    streamCallers(options.checkToken),
    tokenLimit(config.limits.maxTokens),
    documentLimits(config.limits),
    schemaPrivacy(production),
    // App keys run only the manifest's documents in production; partner tokens with TRUSTED_DOCUMENTS_ONLY.
    trustedDocumentsPolicy(apps.trusted, (kind) => (kind === 'app' ? production : config.apps.trustedDocumentsOnly), () =>
      metrics.limitRejections.inc({ limit: 'trusted_document' }),
    ),
    operationTypes(schema),
    ...apps.policies,
    variables(schema, { hideSuggestions: production }),
    cost(schema, config.limits),
  ];
  const pipeline = createPipeline({
    schema,
    policies,
    trusted: apps.trusted,
    persisted: createPersistedQueries(options.cache.namespace('apq', PERSISTED_QUERY_BOUNDS), {
      // A partner whose token the campaign API refused lately cannot run what it sends; an app key
      // runs what the policies let it (in production, the manifest's documents, which are never registered).
      registers: (caller) => caller.kind === 'app' || (caller.kind === 'partner' && verdicts.get(tokenKey(caller)) !== 'refused'),
      onLookup: (result) => metrics.cacheLookups.inc({ cache: 'apq', result }),
    }),
    documents: { maxBytes: DOCUMENTS_MAX_BYTES, maxTextLength: 64 * 1024 },
    verdictBytes: VERDICTS_MAX_BYTES,
  });

  // A partner's key for what is remembered for it alone, and whether its token was accepted lately:
  // the keyed hashes keep those of the tokens seen lately, so a warm request computes none. Not
  // kept by caller: a request's caller is an object of its own, and a weak table given a new key
  // on every request costs more, in the setting and in every young collection after it, than
  // the lookup it would spare.
  const tokenKey = (caller: Caller & { kind: 'partner' }) => verdicts.key(caller.token);
  const appKeys = new WeakMap<AppCaller, string[]>();
  const appTokenKeys = (app: AppCaller) => {
    let keys = appKeys.get(app);
    if (!keys) appKeys.set(app, (keys = app.partnerTokens.map((token) => verdicts.key(token))));
    return keys;
  };
  const responses = createResponseCache({
    schema,
    maxBytes: RESPONSE_CACHE_MAX_BYTES,
    callerKey: (caller) => (caller.kind === 'app' ? `app:${caller.app.keyHash}` : caller.kind === 'partner' ? `partner:${tokenKey(caller)}` : undefined),
    // An app is trusted as its partners are: with a token the campaign API accepted lately (it
    // reads with the first such token), so an app whose tokens are all refused is refused.
    trusts: (caller) =>
      caller.kind === 'partner'
        ? verdicts.get(tokenKey(caller)) === 'accepted'
        : caller.kind === 'app' && appTokenKeys(caller.app).some((key) => verdicts.get(key) === 'accepted'),
    // The compressed copies the HTTP writer keeps of an answer count in the same budget.
    ...(config.compression ? { allowance: keptCopiesAllowance } : {}),
  });

  const execution = apolloExecution<Context>(reportErrors);
  const apollo = new ApolloServer<Context>({
    schema,
    includeStacktraceInErrorResponses: false,
    nodeEnv: config.nodeEnv,
    // The process entry owns SIGTERM/SIGINT and drains the HTTP server first. Apollo's own
    // handler, on by default outside NODE_ENV=test, stopped Apollo under the requests in flight
    // and re-sent the signal, which the entry took as a second one.
    stopOnTerminationSignals: false,
    // Apollo is handed each document the pipeline parsed and validated, through this store: it
    // parses and validates nothing itself, so no rule (token limit, introspection, the limits)
    // is restated here, and it keeps no second copy of any document.
    documentStore: execution.documentStore,
    // The pipeline prepared every operation Apollo runs: persisted queries and every rule are its own.
    persistedQueries: false,
    // Every path formats its errors with the same function.
    formatError: (formatted, error) => (error instanceof GraphQLError ? formatter.formatGraphQLError(error) : formatter.formatError(formatted, error)),
    logger: {
      debug: (m) => logger.debug(m),
      info: (m) => logger.info(m),
      warn: (m) => logger.warn(m),
      error: (m) => logger.error(m),
    },
    // Apollo serves no HTTP here (its CSRF prevention, batching and landing page are the HTTP
    // layer's concern): the endpoint's page is served by the GraphQL handler.
    plugins: [execution.plugin, ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled()],
  });
  await apollo.start();
  return { pipeline, responses, apollo, execution };
}
