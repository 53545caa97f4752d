import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from '../http/client-address.js';
import { describe, flag, int, portOrOff, section, text } from './setting.js';

/**
 * A load balancer stops sending to an instance after `fall` failed checks `inter` apart (HAProxy's
 * defaults: 2 s and 3): until then it still sends, so the port stays open that long.
 */
const DEFAULT_SHUTDOWN_DELAY_MS = 6000;

/** Origins Apollo Sandbox and local front ends use in development. */
const DEVELOPMENT_ORIGINS = ['https://studio.apollographql.com'];

const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  try {
    return parseTrustProxy(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const origins = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.url({ error: 'must be a comma-separated list of origins such as https://app.example.com' })));

export const server = section({
  title: 'Server',
  about: 'The process: its mode, where it listens (the API and, apart, the metrics), its logs, what a browser may call it from, the proxies in front of it and how it stops.',
  shape: {
    NODE_ENV: describe(z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'), {
      default: 'development',
      allowed: '`development`, `production`, `test`',
      description:
        '`production`: introspection, landing page, stack traces, suggestions ("Did you mean", in validation and variable errors) and the demo fallback off; explicit CORS origins only; needs `CAMPAIGN_API_URL`.',
    }),
    PORT: int(0, 65535, 4000, { description: 'The port the GraphQL API listens on.' }),
    HOST: describe(z.string().min(1).default('0.0.0.0'), { default: '0.0.0.0', allowed: 'a host name or address', description: 'The address the GraphQL API (and, unless `METRICS_HOST` says otherwise, the metrics) listen on.' }),
    METRICS_PORT: portOrOff(9464, {
      description: 'Where Prometheus reads `/metrics`: a listener of its own, never the public one (see [the metrics port](observability.md#the-metrics-port)); `off`: no metrics listener. Must differ from `PORT`.',
    }),
    METRICS_HOST: text({ default: 'the value of `HOST`', allowed: 'a host name or address', description: 'The address the metrics listener binds.', example: '127.0.0.1' }),
    BUILD_COMMIT: describe(z.string().regex(/^[0-9a-f]{7,40}$/i, { error: 'must be a git commit hash (7 to 40 hex digits)' }).optional(), {
      allowed: '7 to 40 hex digits',
      description: 'The git commit the build was made from, shown as the `commit` label of `bff_build_info`; an image build sets it.',
      example: '3f2c1ab',
    }),
    LOG_LEVEL: describe(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
      { default: 'info', allowed: '`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`', description: 'The pino level of the JSON log lines on standard output (`info`: a line per GraphQL request; `silent`: no logs).' },
    ),
    CORS_ORIGINS: describe(origins.optional(), {
      default: 'Apollo Sandbox in development, none in production',
      allowed: 'origins, comma-separated',
      description: 'Comma-separated origins allowed by CORS (localhost origins are always allowed in development).',
      example: 'https://app.example.com,https://admin.example.com',
    }),
    COMPRESSION: flag(true, {
      description:
        'GraphQL answers of 1 KiB or more go out in brotli or gzip when the request\'s `Accept-Encoding` admits one (brotli preferred), each coding with an ETag of its own and `Vary: Accept-Encoding`; `false` sends every answer as it is (for a proxy in front that compresses).',
    }),
    EXPLORER: describe(z.enum(['sandbox', 'graphiql', 'off'], { error: 'must be sandbox, graphiql or off' }).default('sandbox'), {
      default: 'sandbox',
      allowed: '`sandbox`, `graphiql`, `off`',
      description:
        'The page a browser gets at `/graphql` in development, with the first query and the demo token filled in: `sandbox`, Apollo Sandbox, loaded from Apollo\'s CDN, which turns to the bundled GraphiQL by itself when Sandbox cannot load (offline, behind a proxy); `graphiql`, the bundled GraphiQL alone, served by the BFF itself; `off`, none. Production serves none, whatever this says.',
    }),
    SHUTDOWN_DELAY_MS: int(0, 600_000, DEFAULT_SHUTDOWN_DELAY_MS, {
      default: '`6000` in production, `0` in development',
      description:
        'On SIGTERM/SIGINT `/readyz` answers 503 at once, and every request (and subscription) is still served, each answer closing its connection, for this long: the time a load balancer takes to stop sending (its check interval × fall; HAProxy\'s defaults 2 s × 3). Then the port closes (see [Graceful shutdown and load balancers](operations.md#graceful-shutdown-and-load-balancers)).',
    }),
    SHUTDOWN_GRACE_MS: int(0, 600_000, 10_000, {
      description:
        'Once the port has closed, requests in flight get this long to be answered (with `Connection: close`). Requests still at work after it are answered 503 `SHUTTING_DOWN` with `Retry-After: 0` (their backend calls abandoned: a query can be sent again at once, a mutation may or may not have taken effect), not cut; then the process exits 0. A second signal exits at once (1); one within 250 ms of the first is the same request (under `npm start` a Ctrl-C arrives twice: from the terminal, and from npm, which passes it on).',
    }),
    TRUST_PROXY: describe(trustProxy.optional(), {
      default: 'no proxy trusted',
      allowed: '`loopback`, `linklocal`, `uniquelocal`, addresses and CIDRs, comma-separated; or a number of proxies',
      description:
        'The load balancers and proxies in front, whose forwarding header names the client (for the per-client rate limit), as Express reads `trust proxy`; `true` is refused (a client could name any address).',
      example: 'loopback, 10.0.0.0/8',
    }),
    TRUST_PROXY_HEADER: describe(z.enum(['x-forwarded-for', 'forwarded'], { error: 'must be x-forwarded-for or forwarded' }).default('x-forwarded-for'), {
      default: 'x-forwarded-for',
      allowed: '`x-forwarded-for`, `forwarded`',
      description: 'The header those proxies write (`forwarded`: RFC 7239 `for=`); the other is never read, since a proxy passes a client\'s own copy on.',
    }),
    CURSOR_SECRET: describe(z.string().min(32, { error: 'must be at least 32 characters (the same on every instance)' }).optional(), {
      secret: true,
      allowed: 'at least 32 characters, the same on every instance',
      description:
        "Keys everything derived from a partner token or an app key (token verdicts, the offer feed's and live status's keys in Redis, app rate-limit buckets, the partner a cursor is bound to), each use under a key of its own, and the HMAC of pagination cursors. Unset: a random key of each process, so that instances share nothing keyed by a token and read back only their own cursors (behind a load balancer, set it); production refuses to start with `CACHE_URL` and without it. Never printed, not even in a configuration error.",
    }),
  },
  check: (e) => {
    const problems: string[] = [];
    if (e.METRICS_PORT === e.PORT && e.PORT !== 0) {
      problems.push(`METRICS_PORT=${e.METRICS_PORT} must differ from PORT=${e.PORT}: metrics have a listener of their own (or METRICS_PORT=off)`);
    }
    return problems;
  },
  build: (e, { production, present }) => ({
    mode: production ? ('production' as const) : ('development' as const),
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    /** Where Prometheus reads `/metrics`: a listener of its own, never the public one; undefined: off. */
    metrics: e.METRICS_PORT === -1 ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST ?? e.HOST },
    /** The commit the build was made from, for `bff_build_info` (the image sets it). */
    buildCommit: e.BUILD_COMMIT?.toLowerCase(),
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS ?? (production ? [] : DEVELOPMENT_ORIGINS),
    /** Answers in brotli or gzip when the client accepts it (http/compression.ts). */
    compression: e.COMPRESSION,
    /** The page a browser gets at the endpoint; none in production. */
    explorer: production ? ('off' as const) : e.EXPLORER,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    /** After SIGTERM/SIGINT: how long /readyz answers 503 while requests are still served, before the port closes. */
    shutdownDelayMs: production || present.SHUTDOWN_DELAY_MS !== undefined ? e.SHUTDOWN_DELAY_MS : 0,
    /** Which peers may name the client in `trustProxyHeader` (http/client-address.ts); false: none. */
    trustProxy: e.TRUST_PROXY ?? (false as TrustProxy),
    trustProxyHeader: e.TRUST_PROXY_HEADER,
    /** Keys the HMAC of pagination cursors; the same on every instance of a fleet. */
    cursorSecret: e.CURSOR_SECRET,
  }),
});
