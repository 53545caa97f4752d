import type { Tracing } from './sdk.js';
import { readTracingSettings } from './settings.js';

export type { Tracing } from './sdk.js';
export { readTracingSettings, type TracingSettings } from './settings.js';
export { activeTracer } from './state.js';

/**
 * Starts OpenTelemetry tracing when the process environment configures an OTLP endpoint;
 * otherwise returns undefined without loading the SDK at all. Throws ConfigError on bad OTEL_*
 * values. The SDK reads the same variables from process.env itself, hence no other source.
 * Call it before the BFF is built: the schema, the loaders and the logger look once at start-up
 * whether tracing is on.
 */
export async function startTracing(): Promise<Tracing | undefined> {
  const settings = readTracingSettings(process.env);
  if (!settings) return undefined;
  const { startSdk } = await import('./sdk.js');
  return startSdk(settings);
}
