import { ConfigError } from '../config.js';
import { TRACE_TEXT_MAX } from './text.js';

/**
 * Tracing is configured by the standard OpenTelemetry variables, read by the SDK itself; this
 * checks them first so a typo stops start-up with a message, as every other setting does, instead
 * of the SDK's silent fallback.
 */

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export const DEFAULT_SERVICE_NAME = 'campaign-graphql-bff';

export interface TracingSettings {
  /** Where spans go, for the start-up banner: scheme, host and path only (no credentials, no query). */
  endpoint: string;
  serviceName: string;
  sampler: string;
  /** Set when the environment asks for a protocol this service does not speak but receivers accept instead. */
  protocolNote?: string;
  /** The longest attribute value a span keeps: TRACE_TEXT_MAX, or less when the environment asks. */
  attributeValueLengthLimit: number;
}

type Env = Record<string, string | undefined>;

/** Empty means unset, as for every other variable of this service. */
const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/**
 * The tracing settings, or undefined when tracing is off: no OTLP endpoint, or
 * `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`. Throws ConfigError on bad values.
 */
export function readTracingSettings(env: Env = process.env): TracingSettings | undefined {
  const problems: string[] = [];
  const disabled = read(env, 'OTEL_SDK_DISABLED');
  if (disabled !== undefined && !['true', 'false'].includes(disabled.toLowerCase())) {
    problems.push(`OTEL_SDK_DISABLED=${JSON.stringify(env.OTEL_SDK_DISABLED)}: must be true or false`);
  }
  const exporter = read(env, 'OTEL_TRACES_EXPORTER');
  if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') {
    problems.push(`OTEL_TRACES_EXPORTER=${JSON.stringify(env.OTEL_TRACES_EXPORTER)}: must be otlp or none (this service exports OTLP over HTTP only)`);
  }

  // The signal-specific variable wins, as the OpenTelemetry specification says.
  const endpointName = read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const rawEndpoint = read(env, endpointName);
  let endpoint: string | undefined;
  if (rawEndpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(rawEndpoint);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      problems.push(`${endpointName}=${JSON.stringify(rawEndpoint)}: must be an absolute http:// or https:// URL, such as http://127.0.0.1:4318`);
    } else {
      const path = endpointName === 'OTEL_EXPORTER_OTLP_ENDPOINT' ? `${url.pathname.replace(/\/+$/, '')}/v1/traces` : url.pathname;
      endpoint = `${url.protocol}//${url.host}${path}`;
    }
  }

  const protocolName = read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = read(env, protocolName);
  let protocolNote: string | undefined;
  if (protocol === 'grpc') {
    problems.push(`${protocolName}=grpc: this service exports OTLP over HTTP (JSON); point the endpoint at the receiver's OTLP/HTTP port (4318) and unset the variable or set http/json`);
  } else if (protocol === 'http/protobuf') {
    // Every OTLP/HTTP receiver (the Collector, Jaeger, Tempo) takes JSON on the same URL.
    protocolNote = `${protocolName}=http/protobuf asked; sending OTLP/HTTP JSON, which the same receivers accept`;
  } else if (protocol !== undefined && protocol !== 'http/json') {
    problems.push(`${protocolName}=${JSON.stringify(protocol)}: must be http/json (or http/protobuf, answered with JSON)`);
  }

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
  // The SDK's own variables for the attribute length may lower the bound, never raise it: a
  // client chooses the length of its aliases and operation names.
  const lengthName = read(env, 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ? 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT' : 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT';
  const rawLength = read(env, lengthName);
  let attributeValueLengthLimit = TRACE_TEXT_MAX;
  if (rawLength !== undefined) {
    if (!/^[1-9][0-9]{0,8}$/.test(rawLength)) {
      problems.push(`${lengthName}=${JSON.stringify(env[lengthName]?.slice(0, 40))}: must be a whole number of characters from 1 (at most ${TRACE_TEXT_MAX} are kept whatever it says)`);
    } else {
      attributeValueLengthLimit = Math.min(TRACE_TEXT_MAX, Number(rawLength));
    }
  }
  if (problems.length) throw new ConfigError(problems);

  if (disabled?.toLowerCase() === 'true' || exporter === 'none' || endpoint === undefined) return undefined;
  const ratioSampler = sampler.endsWith('traceidratio');
  return {
    endpoint,
    serviceName: read(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME,
    sampler: ratioSampler ? `${sampler} ${samplerArg ?? '1'}` : sampler,
    ...(protocolNote ? { protocolNote } : {}),
    attributeValueLengthLimit,
  };
}
