import { context, diag, DiagLogLevel, propagation, ROOT_CONTEXT, trace, type DiagLogger } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_HTTP_REQUEST_RESEND_COUNT, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import { BudgetedSpanProcessor } from './budget.js';
import { TraceparentPropagator } from './propagator.js';
import { attemptOf } from './rest.js';
import { DEFAULT_SERVICE_NAME, type TracingSettings } from './settings.js';
import { setActiveTracer } from './state.js';

export interface Tracing {
  settings: TracingSettings;
  /** Sends the SDK's own problems (a collector that does not answer) to the service's log. */
  logTo(logger: Logger): void;
  /**
   * Exports every span still buffered, then stops; for graceful shutdown. Waits at most
   * `timeoutMs`: a collector that does not answer must not hold the process up.
   */
  shutdown(timeoutMs?: number): Promise<void>;
}

const TRACER_NAME = 'campaign-graphql-bff';
/** One log line per this many ms about the SDK's problems: a down collector fails every export. */
const DIAG_LOG_INTERVAL_MS = 10_000;

/**
 * The OpenTelemetry SDK, configured from the standard variables it reads itself: the OTLP/HTTP
 * JSON exporter (endpoint, headers, timeout, compression), the batch span processor (OTEL_BSP_*),
 * the sampler (OTEL_TRACES_SAMPLER, _ARG) and the resource (OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES). Loaded only when tracing is on, so with it off none of this is even
 * imported.
 */
export function startSdk(settings: TracingSettings): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    // Every attribute value, of events too, is cut to the bound whoever set it (the undici
    // instrumentation included), and the counts bound the rest of a span, so the batch
    // processor's queue (OTEL_BSP_MAX_QUEUE_SIZE spans) is bounded in bytes too. The SDK's
    // defaults leave values unbounded.
    spanLimits: {
      attributeValueLengthLimit: settings.attributeValueLengthLimit,
      attributeCountLimit: 32,
      eventCountLimit: 16,
      attributePerEventCountLimit: 8,
      linkCountLimit: 8,
      attributePerLinkCountLimit: 8,
    },
    // One request's spans beyond its budget never reach the queue.
    spanProcessors: [new BudgetedSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter()))],
  });
  // `traceparent` only: a client's tracestate and baggage are its text, not for the partner API.
  provider.register({ propagator: new TraceparentPropagator() });

  // The REST client's undici Pool publishes every request on diagnostics_channel, which this
  // instrumentation subscribes to: no module patching, so it works for our compiled ES modules
  // without a loader hook. It opens the HTTP client span under the current REST-call span and
  // writes `traceparent` into the request. The attempt number comes from the REST-call span's context.
  const undici = new UndiciInstrumentation({
    startSpanHook: () => {
      const attempt = attemptOf(context.active());
      return attempt !== undefined && attempt > 1 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: attempt - 1 } : {};
    },
  });
  registerInstrumentations({ tracerProvider: provider, instrumentations: [undici] });
  setActiveTracer(provider.getTracer(TRACER_NAME));

  let stopping: Promise<void> | undefined;
  let log: Logger | undefined;
  return {
    settings,
    logTo(logger) {
      log = logger;
      let lastLine = 0;
      let suppressed = 0;
      const write = (level: 'warn' | 'error') => (message: unknown) => {
        const now = Date.now();
        if (now - lastLine < DIAG_LOG_INTERVAL_MS) {
          suppressed++;
          return;
        }
        lastLine = now;
        // Outside any request's context: an export started by a span of one request is not part of it.
        context.with(ROOT_CONTEXT, () =>
          logger[level]({ suppressedSinceLast: suppressed || undefined }, `tracing: ${describeDiag(message)}`),
        );
        suppressed = 0;
      };
      const quiet = () => {};
      const diagLogger: DiagLogger = { error: write('error'), warn: write('warn'), info: quiet, debug: quiet, verbose: quiet };
      diag.setLogger(diagLogger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
    },
    shutdown(timeoutMs = 5000) {
      stopping ??= (async () => {
        setActiveTracer(undefined);
        undici.disable();
        let timer: NodeJS.Timeout | undefined;
        const flushed = await Promise.race([
          provider.shutdown().then(
            () => true,
            (error: unknown) => {
              log?.warn(`tracing: export at shutdown failed: ${describeDiag(error)}`);
              return true;
            },
          ),
          new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
        ]);
        clearTimeout(timer);
        if (!flushed) log?.warn(`tracing: spans not exported within ${timeoutMs} ms of shutdown were dropped`);
        trace.disable();
        propagation.disable();
        context.disable();
        diag.disable();
      })();
      return stopping;
    },
  };
}

/** The SDK reports an export failure as the error serialised to JSON; its message is what helps. */
function describeDiag(message: unknown): string {
  if (message instanceof Error) return message.message;
  if (typeof message !== 'string') return String(message);
  if (!message.startsWith('{')) return message;
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : message;
  } catch {
    return message;
  }
}
