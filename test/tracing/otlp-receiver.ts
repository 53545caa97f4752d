import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the test reads it: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  /** The W3C tracestate of the span's context, as exported ('' or absent when none). */
  traceState: string | undefined;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`: the value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Paths, content types and body sizes of the export requests received. */
  requests: { path: string; contentType: string | undefined; bytes: number }[];
  close(): Promise<void>;
}

export interface OtlpReceiverOptions {
  /**
   * A collector that hangs: it accepts each export request and reads its body, then never
   * answers; spans are counted in `requests` but not decoded.
   */
  hang?: boolean;
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  // OTLP/JSON may write 64-bit integers as strings.
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));

/**
 * A stand-in for an OpenTelemetry Collector's OTLP/HTTP receiver: accepts `POST /v1/traces` with
 * a JSON `ExportTraceServiceRequest`, decodes it, and answers as a collector does (or, with
 * `hang`, never answers).
 */
export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (!options.hang) chunks.push(chunk);
    });
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], bytes });
      if (options.hang) return;
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              scope: scopeSpans.scope?.name,
              attributes: attributesOf(span.attributes),
              events: (span.events ?? []).map((e: { name: string; attributes?: KeyValue[] }) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
              status: span.status ?? {},
              traceState: span.traceState,
              resource,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A hanging receiver's requests are still open: cut them.
        server.closeAllConnections();
      }),
  };
}
