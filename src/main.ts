// First: stack traces of everything below name the TypeScript sources.
import './observability/source-maps.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from './emulator/index.js';
import { redactUrlValue } from './observability/failures.js';
import { createLogger } from './observability/logger.js';
import { startBff } from './server/bff.js';
import { applyHeapGrowth } from './server/heap-growth.js';
import { startTracing, type Tracing } from './tracing/index.js';
import { traceLogFields } from './tracing/logs.js';

/** The app key `npm start` configures on the embedded emulator (public by design, like every app key). */
const DEMO_APP_KEY = 'demo-app-key';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`campaign-bff: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Before anything else is built: the schema, the loaders and the logger ask once whether tracing is on. */
async function startTracingOrExit(): Promise<Tracing | undefined> {
  try {
    return await startTracing();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`campaign-bff: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
applyHeapGrowth(config.heapGrowthPercent);
const tracing = await startTracingOrExit();
const logger = createLogger(config.logLevel, undefined, tracing ? { mixin: traceLogFields } : {});
if (tracing) {
  tracing.logTo(logger);
  if (tracing.settings.protocolNote) logger.warn(`tracing: ${tracing.settings.protocolNote}`);
}

// A bug must not take the whole service down with it: log it and keep serving.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

let emulator: RunningEmulator | undefined;
let campaignApiUrl = config.campaignApiUrl;
if (!campaignApiUrl) {
  emulator = await startEmulator({ port: config.emulatorPort, host: '127.0.0.1', quiet: true });
  campaignApiUrl = emulator.url;
}

const bff = await startBff(config, {
  campaignApiUrl,
  fallbackToken: config.demoFallback ? DEMO_TOKENS.store : null,
  // On the embedded emulator an app key reads the demo partners' feed (docs/operations/offer-feed).
  appKeys: emulator ? { [DEMO_APP_KEY]: { name: 'Demo app', partnerTokens: [DEMO_TOKENS.store, DEMO_TOKENS.aggregator] } } : undefined,
  logger,
}).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`campaign-bff: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
});

const lines = [
  '',
  `Campaign GraphQL BFF (${config.mode})`,
  `  GraphQL      ${bff.url}${config.mode === 'development' ? '   (open it in a browser for Apollo Sandbox)' : ''}`,
  `  health       ${bff.url.replace(/\/graphql$/, '/healthz')}  ${bff.url.replace(/\/graphql$/, '/readyz')}`,
  `  metrics      ${bff.url.replace(/\/graphql$/, '/metrics')}`,
  `  backend      ${emulator ? `${emulator.url}/v1 (embedded emulator; admin at ${emulator.url}/_emulator/)` : redactUrlValue(campaignApiUrl)}`,
  `  cache        ${config.cacheUrl ? `Redis ${redactUrlValue(config.cacheUrl)}` : 'in memory'}`,
  `  tracing      ${
    tracing
      ? `${redactUrlValue(tracing.settings.endpoint)} (OTLP/HTTP JSON, service ${tracing.settings.serviceName}, sampler ${tracing.settings.sampler})`
      : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT to export traces)'
  }`,
];
if (emulator) {
  lines.push(
    `  demo tokens  Authorization: Bearer ${DEMO_TOKENS.store}   (a store)`,
    `               Authorization: Bearer ${DEMO_TOKENS.aggregator}   (an aggregator)`,
  );
  lines.push(`  demo app key X-App-Key: ${DEMO_APP_KEY}   (offerFeed and categories of both demo partners)`);
  if (config.demoFallback) lines.push(`               requests without Authorization act as ${DEMO_TOKENS.store}`);
}
process.stdout.write(`${lines.join('\n')}\n\n`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    logger.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  stopping = true;
  logger.info({ signal, delayMs: config.shutdownDelayMs, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
  await bff.close({ delayMs: config.shutdownDelayMs });
  // After the last request's spans have ended: what the batch processor still holds is sent now.
  await tracing?.shutdown();
  await emulator?.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
