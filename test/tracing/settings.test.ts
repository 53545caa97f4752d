import { context, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { readTracingSettings } from '../../src/config/tracing.js';
import { activeTracer, startTracing } from '../../src/tracing/index.js';
import { startOtlpReceiver } from './otlp-receiver.js';

describe('tracing settings (OTEL_* variables)', () => {
  it('off without an endpoint, with an empty one, with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none', () => {
    expect(readTracingSettings({})).toBeUndefined();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'x' })).toBeUndefined();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('on with either endpoint variable; the traces one wins and is used as given', () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'campaign-graphql-bff',
      sampler: 'parentbased_always_on',
      attributeValueLengthLimit: 256,
    });
    expect(
      readTracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:pw@tempo.example:4318/otlp/v1/traces?key=1',
        OTEL_SERVICE_NAME: 'bff-eu',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      }),
    ).toEqual({
      // Shown at start-up: no credentials, no query string.
      endpoint: 'https://tempo.example:4318/otlp/v1/traces',
      serviceName: 'bff-eu',
      sampler: 'parentbased_traceidratio 0.25',
      protocolNote: expect.stringContaining('sending OTLP/HTTP JSON'),
      attributeValueLengthLimit: 256,
    });
  });

  it("the SDK's attribute length variables lower the bound on span text, never raise it; the span one wins", () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(readTracingSettings({ ...on, OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '100' })?.attributeValueLengthLimit).toBe(100);
    expect(readTracingSettings({ ...on, OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '100', OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: '64' })?.attributeValueLengthLimit).toBe(64);
    expect(readTracingSettings({ ...on, OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '1000000' })?.attributeValueLengthLimit).toBe(256);
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318": must be an absolute http:// or https:// URL'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://c:4317' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="grpc://c:4317"'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this service exports OTLP over HTTP'],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER="sometimes": must be one of always_on'],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG="1.5": must be a number from 0 to 1'],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER="zipkin": must be otlp or none'],
    [{ OTEL_SDK_DISABLED: 'maybe' }, 'OTEL_SDK_DISABLED="maybe": must be true or false'],
    [{ OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '0' }, 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT="0": must be a whole number of characters from 1'],
    [{ OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: '1e3' }, 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT="1e3": must be a whole number'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => readTracingSettings(env)).toThrow(ConfigError);
    expect(() => readTracingSettings(env)).toThrow(message);
  });
});

describe('startTracing', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it('with the endpoint unset starts no SDK: nothing registered, spans are no-ops, no traceparent is written', async () => {
    for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
    expect(await startTracing(readTracingSettings(process.env))).toBeUndefined();
    expect(activeTracer()).toBeUndefined();
    const span = trace.getTracer('probe').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    const headers: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), headers);
    expect(headers).toEqual({});
  });

  it('with an endpoint registers the SDK, exports what is buffered on shutdown, then unregisters', async () => {
    const receiver = await startOtlpReceiver();
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
      process.env.OTEL_BSP_SCHEDULE_DELAY = '600000';
      const tracing = await startTracing(readTracingSettings(process.env));
      expect(tracing).toBeDefined();
      const tracer = activeTracer()!;
      const span = tracer.startSpan('probe');
      const headers: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), headers);
      expect(headers.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
      span.end();
      expect(receiver.spans).toEqual([]);
      await tracing!.shutdown();
      expect(receiver.spans.map((s) => [s.name, s.traceId])).toEqual([['probe', span.spanContext().traceId]]);
      expect(activeTracer()).toBeUndefined();
      expect(trace.getTracer('probe').startSpan('after').isRecording()).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});
