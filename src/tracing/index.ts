import type { Tracing } from './sdk.js';
import type { TracingSettings } from './settings.js';

export type { Tracing } from './sdk.js';
export type { TracingSettings } from './settings.js';
export { activeTracer } from './state.js';

/**
 * Starts OpenTelemetry tracing with the settings the configuration read from the OTEL_* variables
 * (src/config/tracing.ts); with none (tracing off) returns undefined without loading the SDK at
 * all. The SDK reads the same variables from process.env itself, hence no other source (the
 * process entry passes what its configuration read from process.env).
 * Call it before the BFF is built: the schema, the loaders and the logger look once at start-up
 * whether tracing is on.
 */
export async function startTracing(settings: TracingSettings | undefined): Promise<Tracing | undefined> {
  if (!settings) return undefined;
  const { startSdk } = await import('./sdk.js');
  return startSdk(settings);
}
