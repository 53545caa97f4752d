// First: stack traces of everything below name the TypeScript sources.
import './observability/source-maps.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nearMisses, describeNearMiss } from './config-names.js';
import { ConfigError, loadConfig } from './config.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from './emulator/index.js';
import { redactUrlValue } from './observability/failures.js';
import { createLogger } from './observability/logger.js';
import { startBff } from './server/bff.js';
import { applyHeapGrowth } from './server/heap-growth.js';
import { listenFailure, ListenError } from './server/listen.js';
import { startTracing } from './tracing/index.js';
import { traceLogFields } from './tracing/logs.js';

/** The app key `npm start` configures on the embedded emulator (public by design, like every app key). */
const DEMO_APP_KEY = 'demo-app-key';

/**
 * The client kit's trusted-documents manifest (the build copies it next to dist/src/), served on
 * the embedded emulator when TRUSTED_DOCUMENTS names none: the kit's documents then run by
 * `documentId` locally, as they do against a deployment holding that manifest.
 */
const KIT_MANIFEST = fileURLToPath(new URL('../client/src/gql/persisted-documents.json', import.meta.url));

/**
 * A start-up step that fails on a setting (a bad value, a file that cannot be used, an address
 * that cannot be listened on) ends the process with the message alone and exit code 1, without a
 * stack trace: the message names the variable and the cause. Anything else is a bug, and keeps its stack.
 */
async function orExit<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ListenError) {
      process.stderr.write(`campaign-bff: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const config = await orExit(() => loadConfig());
applyHeapGrowth(config.heapGrowthPercent);
// Before anything else is built: the schema, the loaders and the logger ask once whether tracing is on.
const tracing = config.tracing ? await orExit(() => startTracing(config.tracing)) : undefined;
const logger = createLogger(config.logLevel, undefined, tracing ? { mixin: traceLogFields } : {});
if (tracing) {
  tracing.logTo(logger);
  if (tracing.settings.protocolNote) logger.warn(`tracing: ${tracing.settings.protocolNote}`);
}
// A setting spelt wrong would otherwise be ignored without a word. Names only: a value may be a secret.
for (const miss of nearMisses(process.env)) logger.warn({ variable: miss.name, meant: miss.meant }, describeNearMiss(miss));
// A setting an upgrade removed: ignored for its release, so that the upgrade does not stop the start.
for (const { name, message } of config.ignoredSettings) logger.warn({ variable: name }, message);

// A bug must not take the whole service down with it: log it and keep serving.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

let emulator: RunningEmulator | undefined;
let campaignApiUrl = config.campaignApiUrl;
if (!campaignApiUrl) {
  // On the loopback address only: the emulator is for this machine's BFF, never for the network.
  const where = { port: config.emulatorPort, host: '127.0.0.1', portVariable: 'EMULATOR_PORT', hostVariable: 'EMULATOR_PORT' };
  const started = await orExit(() => startEmulator({ port: where.port, host: where.host, quiet: true }).catch((error: unknown) => Promise.reject(listenFailure(where, error))));
  emulator = started;
  campaignApiUrl = started.url;
}

const served =
  emulator && config.apps.trustedDocumentsFile === undefined && existsSync(KIT_MANIFEST)
    ? { ...config, apps: { ...config.apps, trustedDocumentsFile: KIT_MANIFEST } }
    : config;
const bff = await orExit(() =>
  startBff(served, {
    campaignApiUrl,
    fallbackToken: config.demoFallback ? DEMO_TOKENS.store : null,
    // On the embedded emulator an app key reads the demo partners' feed (docs/operations/offer-feed).
    appKeys: emulator ? { [DEMO_APP_KEY]: { name: 'Demo app', partnerTokens: [DEMO_TOKENS.store, DEMO_TOKENS.aggregator] } } : undefined,
    logger,
  }),
);

/**
 * Under `npm start` a Ctrl-C reaches this process twice: from the terminal, which signals its
 * whole foreground process group, and again from npm, which passes on the signals it receives to
 * its script. A signal this soon after the first is that same request; a later one is someone
 * insisting, and ends the process at once.
 */
const SAME_REQUEST_MS = 250;
let stoppingSince: number | undefined;

async function shutdown(signal: string): Promise<void> {
  logger.info({ signal, delayMs: config.shutdownDelayMs, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
  await bff.close({ delayMs: config.shutdownDelayMs });
  // After the last request's spans have ended: what the batch processor still holds is sent now.
  await tracing?.shutdown();
  await emulator?.close();
  logger.info('stopped');
  process.exit(0);
}

function onSignal(signal: NodeJS.Signals): void {
  if (stoppingSince === undefined) {
    stoppingSince = performance.now();
    void shutdown(signal);
  } else if (performance.now() - stoppingSince >= SAME_REQUEST_MS) {
    logger.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
}
// Before the banner: a supervisor may signal as soon as it reads it, and a signal with no
// handler yet would end the process without draining.
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

const health = `${bff.url.replace(/\/graphql$/, '/healthz')}  ${bff.url.replace(/\/graphql$/, '/readyz')}`;
const backend = emulator ? `${emulator.url}/v1 (embedded emulator; admin at ${emulator.url}/_emulator/)` : redactUrlValue(campaignApiUrl);
const cache = config.cacheUrl ? `Redis ${redactUrlValue(config.cacheUrl)}` : 'in memory';
const metricsWhere = bff.metricsUrl ?? 'off (METRICS_PORT=off)';
const tracingWhere = tracing
  ? `${redactUrlValue(tracing.settings.endpoint)} (OTLP/HTTP JSON, service ${tracing.settings.serviceName}, sampler ${tracing.settings.sampler})`
  : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT to export traces)';
if (config.mode === 'production') {
  // Standard output carries JSON lines only in production, for the log shipper: the same facts, as one.
  logger.info({ mode: config.mode, graphql: bff.url, health, metrics: metricsWhere, backend, cache, tracing: tracingWhere }, 'started');
} else {
  const lines = [
    '',
    `Campaign GraphQL BFF (${config.mode})`,
    `  GraphQL      ${bff.url}${config.explorer === 'off' ? '' : `   (open it in a browser for ${config.explorer === 'sandbox' ? 'Apollo Sandbox, or GraphiQL when Sandbox cannot load' : 'GraphiQL'})`}`,
    `  health       ${health}`,
    `  metrics      ${metricsWhere}`,
    `  backend      ${backend}`,
    `  cache        ${cache}`,
    `  tracing      ${tracingWhere}`,
  ];
  if (served.apps.trustedDocumentsFile) {
    lines.push(`  documents    ${bff.apps.trusted.size} trusted documents from ${served.apps.trustedDocumentsFile} (by documentId or persisted-query hash)`);
  }
  if (emulator) {
    lines.push(
      `  demo tokens  Authorization: Bearer ${DEMO_TOKENS.store}   (a store)`,
      `               Authorization: Bearer ${DEMO_TOKENS.aggregator}   (an aggregator)`,
    );
    lines.push(`  demo app key X-App-Key: ${DEMO_APP_KEY}   (offerFeed and categories of both demo partners)`);
    if (config.demoFallback) lines.push(`               requests without Authorization act as ${DEMO_TOKENS.store}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
