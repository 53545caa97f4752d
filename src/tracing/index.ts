import type { Tracing } from './sdk.js';
import { readTracingSettings, type TracingSettings } from './settings.js';

export type { Tracing } from './sdk.js';
export { readTracingSettings, type TracingSettings } from './settings.js';
export { activeTracer } from './state.js';

/**
 * Starts OpenTelemetry tracing when the process environment configures an OTLP endpoint;
 * otherwise returns undefined without loading the SDK at all. Throws ConfigError on bad OTEL_*
 * values. The SDK reads the same variables from process.env itself, hence no other source (the
 * process entry passes what its configuration read from process.env).
 * Call it before the BFF is built: the schema, the loaders and the logger look once at start-up
 * whether tracing is on.
 */
export async function startTracing(settings: TracingSettings | undefined = readTracingSettings(process.env)): Promise<Tracing | undefined> {
  if (!settings) return undefined;
  const { startSdk } = await import('./sdk.js');
  return startSdk(settings);
}
