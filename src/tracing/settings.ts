/** The OTEL_* variables are a section of the configuration (src/config/tracing.ts): declared, described and checked there. */
export { DEFAULT_SERVICE_NAME, readTracingSettings, type TracingSettings } from '../config/tracing.js';
