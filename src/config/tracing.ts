import { z } from 'zod';
import { DEFAULT_SERVICE_NAME, type TracingSettings } from '../tracing/settings.js';
import { TRACE_TEXT_MAX } from '../tracing/text.js';
import { ConfigError } from './error.js';
import { describe, section, type SettingDoc } from './setting.js';

/**
 * Tracing is configured by the standard OpenTelemetry variables, read by the SDK itself; the
 * section checks first those this service acts on, so a typo stops start-up with a message, as
 * every other setting does, instead of the SDK's silent fallback. The checks are not per
 * variable: the specification lets a signal-specific variable win over the general one, and only
 * the one that wins is read.
 */

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** A variable checked by the section below (as text: the checks read the environment themselves). */
const otel = (doc: SettingDoc) => describe(z.string().optional(), doc);

/** A variable only the SDK reads: named, so that it is never taken for a misspelling. */
const sdk = (description: string, secret = false) => otel({ description, sdk: true, ...(secret ? { secret } : {}) });

/** The OTLP exporter's own variables, in their general and traces forms. */
function exporterVariables() {
  const meaning: Record<string, [string, boolean?]> = {
    HEADERS: ['headers sent with every export, such as an API key of a hosted backend (`key=value`, comma-separated)', true],
    TIMEOUT: ['how long one export may take, in ms'],
    COMPRESSION: ['`gzip` to compress exports'],
    CERTIFICATE: ['a CA certificate file to verify the receiver with'],
    CLIENT_KEY: ['the client key file of mutual TLS'],
    CLIENT_CERTIFICATE: ['the client certificate file of mutual TLS'],
    INSECURE: ['whether to export without TLS (gRPC only)'],
  };
  const shape: Record<string, ReturnType<typeof otel>> = {};
  for (const signal of ['', 'TRACES_']) {
    for (const [name, [description, secret]] of Object.entries(meaning)) {
      shape[`OTEL_EXPORTER_OTLP_${signal}${name}`] = sdk(signal ? `The same for traces; wins over the general one.` : `The OTLP exporter: ${description}.`, secret ?? false);
    }
  }
  return shape;
}

const lengthLimit = (which: string) =>
  otel({
    default: String(TRACE_TEXT_MAX),
    allowed: `1 or more (at most ${TRACE_TEXT_MAX} are kept whatever it says)`,
    description: `The most characters ${which} keeps; may lower the bound on span text, never raise it (a client chooses the length of its aliases).`,
  });

const shape = {
  OTEL_EXPORTER_OTLP_ENDPOINT: otel({
    default: 'tracing off',
    description: 'The OTLP/HTTP receiver\'s base URL (spans go to `/v1/traces` under it). Unset, and no traces endpoint: tracing is off and the SDK is not even loaded.',
    allowed: 'an `http://` or `https://` URL',
    example: 'http://collector:4318',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otel({ allowed: 'an `http://` or `https://` URL', description: 'The full traces URL, used as given; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`.', example: 'https://tempo.example:4318/v1/traces' }),
  OTEL_EXPORTER_OTLP_PROTOCOL: otel({
    default: 'http/json',
    allowed: '`http/json`, `http/protobuf`',
    description: 'Spans are sent as OTLP/HTTP JSON; `http/protobuf` is answered with JSON (every OTLP/HTTP receiver takes both) and a warning; `grpc` is refused.',
  }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otel({ allowed: '`http/json`, `http/protobuf`', description: 'The same for traces; wins over `OTEL_EXPORTER_OTLP_PROTOCOL`.' }),
  OTEL_SERVICE_NAME: otel({ default: DEFAULT_SERVICE_NAME, allowed: 'text', description: '`service.name` of the spans (`OTEL_RESOURCE_ATTRIBUTES` adds more).' }),
  OTEL_TRACES_SAMPLER: otel({ default: 'parentbased_always_on', allowed: SAMPLERS.map((s) => `\`${s}\``).join(', '), description: 'Which traces are kept.' }),
  OTEL_TRACES_SAMPLER_ARG: otel({ default: '1', allowed: '0 to 1', description: 'The share of traces the ratio samplers keep.' }),
  OTEL_SDK_DISABLED: otel({ default: 'false', allowed: '`true` or `false`', description: '`true` turns tracing off with an endpoint set.' }),
  OTEL_TRACES_EXPORTER: otel({ default: 'otlp', allowed: '`otlp`, `none`', description: '`none` turns tracing off with an endpoint set.' }),
  OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: lengthLimit('an attribute value'),
  OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: lengthLimit('a span attribute value (wins over `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`)'),
  OTEL_RESOURCE_ATTRIBUTES: sdk('More resource attributes of the spans (`key=value`, comma-separated).'),
  OTEL_LOG_LEVEL: sdk("The SDK's own diagnostic log level."),
  OTEL_PROPAGATORS: sdk('The context propagators (W3C `tracecontext` here whatever it says).'),
  OTEL_METRICS_EXPORTER: sdk('Not used: metrics are served to Prometheus.'),
  OTEL_LOGS_EXPORTER: sdk('Not used: logs are JSON lines on standard output.'),
  OTEL_BSP_SCHEDULE_DELAY: sdk('The batch span processor: the delay between exports, in ms.'),
  OTEL_BSP_EXPORT_TIMEOUT: sdk('The batch span processor: how long an export may take, in ms.'),
  OTEL_BSP_MAX_QUEUE_SIZE: sdk('The batch span processor: spans kept waiting at most (more are dropped).'),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: sdk('The batch span processor: spans per export at most.'),
  OTEL_ATTRIBUTE_COUNT_LIMIT: sdk('Attributes per span, event or link at most.'),
  OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: sdk('Attributes per span at most.'),
  OTEL_SPAN_EVENT_COUNT_LIMIT: sdk('Events per span at most.'),
  OTEL_SPAN_LINK_COUNT_LIMIT: sdk('Links per span at most.'),
  OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT: sdk('Attributes per span event at most.'),
  OTEL_LINK_ATTRIBUTE_COUNT_LIMIT: sdk('Attributes per span link at most.'),
  ...exporterVariables(),
};

type Env = Readonly<Record<string, string | undefined>>;

/** Empty means unset, as for every other variable of this service. */
const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/** The traces endpoint for the start-up banner: scheme, host and path only (no credentials, no query). */
function endpointOf(env: Env, problems: string[]): string | undefined {
  // The signal-specific variable wins, as the OpenTelemetry specification says.
  const name = read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push(`${name}=${JSON.stringify(raw)}: must be an absolute http:// or https:// URL, such as http://127.0.0.1:4318`);
    return undefined;
  }
  const path = name === 'OTEL_EXPORTER_OTLP_ENDPOINT' ? `${url.pathname.replace(/\/+$/, '')}/v1/traces` : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}

/** A note when the environment asks for a protocol this service does not speak but receivers accept instead. */
function protocolNoteOf(env: Env, problems: string[]): string | undefined {
  const name = read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = read(env, name);
  if (protocol === 'grpc') {
    problems.push(`${name}=grpc: this service exports OTLP over HTTP (JSON); point the endpoint at the receiver's OTLP/HTTP port (4318) and unset the variable or set http/json`);
  } else if (protocol === 'http/protobuf') {
    // Every OTLP/HTTP receiver (the Collector, Jaeger, Tempo) takes JSON on the same URL.
    return `${name}=http/protobuf asked; sending OTLP/HTTP JSON, which the same receivers accept`;
  } else if (protocol !== undefined && protocol !== 'http/json') {
    problems.push(`${name}=${JSON.stringify(protocol)}: must be http/json (or http/protobuf, answered with JSON)`);
  }
  return undefined;
}

/**
 * The SDK's own variables for the attribute length may lower the bound, never raise it: a client
 * chooses the length of its aliases and operation names.
 */
function lengthLimitOf(env: Env, problems: string[]): number {
  const name = read(env, 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ? 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT' : 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT';
  const raw = read(env, name);
  if (raw === undefined) return TRACE_TEXT_MAX;
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) {
    problems.push(`${name}=${JSON.stringify(env[name]?.slice(0, 40))}: must be a whole number of characters from 1 (at most ${TRACE_TEXT_MAX} are kept whatever it says)`);
    return TRACE_TEXT_MAX;
  }
  return Math.min(TRACE_TEXT_MAX, Number(raw));
}

/** The settings, or undefined when tracing is off; what is wrong goes to `problems`. */
function settingsOf(env: Env, problems: string[]): TracingSettings | undefined {
  const disabled = read(env, 'OTEL_SDK_DISABLED');
  if (disabled !== undefined && !['true', 'false'].includes(disabled.toLowerCase())) {
    problems.push(`OTEL_SDK_DISABLED=${JSON.stringify(env.OTEL_SDK_DISABLED)}: must be true or false`);
  }
  const exporter = read(env, 'OTEL_TRACES_EXPORTER');
  if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') {
    problems.push(`OTEL_TRACES_EXPORTER=${JSON.stringify(env.OTEL_TRACES_EXPORTER)}: must be otlp or none (this service exports OTLP over HTTP only)`);
  }
  const endpoint = endpointOf(env, problems);
  const protocolNote = protocolNoteOf(env, problems);
  const sampler = read(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  if (!(SAMPLERS as readonly string[]).includes(sampler)) {
    problems.push(`OTEL_TRACES_SAMPLER=${JSON.stringify(env.OTEL_TRACES_SAMPLER)}: must be one of ${SAMPLERS.join(', ')}`);
  }
  const samplerArg = read(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (samplerArg !== undefined) {
    const ratio = Number(samplerArg);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
      problems.push(`OTEL_TRACES_SAMPLER_ARG=${JSON.stringify(env.OTEL_TRACES_SAMPLER_ARG)}: must be a number from 0 to 1 (the share of traces kept)`);
    }
  }
  const attributeValueLengthLimit = lengthLimitOf(env, problems);
  if (disabled?.toLowerCase() === 'true' || exporter === 'none' || endpoint === undefined) return undefined;
  return {
    endpoint,
    serviceName: read(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME,
    sampler: sampler.endsWith('traceidratio') ? `${sampler} ${samplerArg ?? '1'}` : sampler,
    ...(protocolNote ? { protocolNote } : {}),
    attributeValueLengthLimit,
  };
}

export const tracing = section({
  title: 'Tracing',
  about:
    'OpenTelemetry tracing, by its standard variables. Those this service acts on are checked at start-up like every other setting; the others are read by the SDK alone and listed so that none is taken for a misspelling.',
  shape,
  check: (_values, { env }) => {
    const problems: string[] = [];
    settingsOf(env, problems);
    return problems;
  },
  build: (_values, { env }): TracingSettings | undefined => settingsOf(env, []),
});

/**
 * The tracing settings, or undefined when tracing is off: no OTLP endpoint, or
 * `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`. Throws ConfigError on bad values.
 */
export function readTracingSettings(env: Env = process.env): TracingSettings | undefined {
  const problems: string[] = [];
  const settings = settingsOf(env, problems);
  if (problems.length) throw new ConfigError(problems);
  return settings;
}
