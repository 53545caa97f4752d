/**
 * What tracing starts with. The OTEL_* variables are a section of the configuration
 * (src/config/tracing.ts), declared, described and checked there; the configuration sits above
 * tracing and hands it these.
 */
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

export const DEFAULT_SERVICE_NAME = 'campaign-graphql-bff';
