import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import { pino } from 'pino';

/**
 * A GraphQL server written for the one warm query, `{ categories { id name } }`, the way a
 * Fastify shop would write it: mercurius with its query cache and graphql-jit (`jit: 1`: a
 * document compiled from its first run on). What the BFF keeps in memory for that answer it keeps
 * too: the category directory, read from the campaign API (CAMPAIGN_API_URL) with a partner's
 * token, and what the API said of each token (accepted for a minute, refused for 5 s, at most
 * 10,000, keyed by the token itself: process memory only, never logged). A token is checked once
 * by reading the directory with it, concurrent requests sharing the read; an unknown token is
 * answered 401 with no data.
 *
 * With MERCURIUS_REQUEST_LOG=1 it writes one JSON line per request at info, as the BFF ships
 * (pino, synchronous writes to standard output); otherwise none (Fastify's own request lines are
 * off either way: they are two a request).
 */

const ACCEPTED_FOR_MS = 60_000;
const REFUSED_FOR_MS = 5_000;
const MAX_VERDICTS = 10_000;

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`mercurius-server: ${name} is required\n`);
    process.exit(2);
  }
  return value;
}

const port = Number(required('PORT'));
const backend = required('CAMPAIGN_API_URL').replace(/\/+$/, '');
const requestLog = process.env.MERCURIUS_REQUEST_LOG === '1';

interface Category {
  id: string;
  name: string;
}

let directory: Category[] = [];
const verdicts = new Map<string, { accepted: boolean; until: number }>();
const checking = new Map<string, Promise<boolean>>();

/** Reads the directory with `token`: the API's answer is the token's verdict, and a fresh copy. */
async function check(token: string): Promise<boolean> {
  const response = await fetch(`${backend}/v1/categories/get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: '{}',
    signal: AbortSignal.timeout(5000),
  });
  const answer = (await response.json()) as { status?: string; result?: { categories: { categoryId: number; categoryName: string }[] } };
  const accepted = response.status === 200 && answer.status === 'success';
  if (accepted) directory = answer.result!.categories.map((c) => ({ id: String(c.categoryId), name: c.categoryName }));
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(token, { accepted, until: Date.now() + (accepted ? ACCEPTED_FOR_MS : REFUSED_FOR_MS) });
  return accepted;
}

function accepted(token: string): boolean | Promise<boolean> {
  const known = verdicts.get(token);
  if (known && known.until > Date.now()) return known.accepted;
  let pending = checking.get(token);
  if (!pending) {
    pending = check(token).finally(() => checking.delete(token));
    checking.set(token, pending);
  }
  return pending;
}

// The BFF's line has the time in ISO 8601, as operators read it: so has this one.
const logger = pino(
  { level: requestLog ? 'info' : 'warn', base: { service: 'mercurius-bench' }, timestamp: pino.stdTimeFunctions.isoTime },
  pino.destination({ dest: 1, sync: true }),
);
const app = Fastify({ loggerInstance: logger, logController: new LogController({ disableRequestLogging: true }) });

app.register(mercurius, {
  schema: 'type Category { id: ID! name: String! } type Query { categories: [Category!] }',
  resolvers: { Query: { categories: () => directory } },
  jit: 1,
  cache: true,
});

const unauthenticated = (reply: FastifyReply) =>
  reply.code(401).send({ errors: [{ message: 'Send a partner token the campaign API accepts: Authorization: Bearer <token>.', extensions: { code: 'UNAUTHENTICATED' } }] });

app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
  if (request.routeOptions.url !== '/graphql') return;
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) return unauthenticated(reply);
  const verdict = accepted(token);
  if (!(verdict === true || (verdict !== false && (await verdict)))) return unauthenticated(reply);
});

if (requestLog) {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as { operationName?: unknown } | undefined;
    request.log.info(
      { operation: typeof body?.operationName === 'string' ? body.operationName : 'anonymous', statusCode: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 10) / 10 },
      'graphql request',
    );
  });
}

app.get('/healthz', async () => ({ ok: true }));

await app.listen({ port, host: '127.0.0.1' });
process.stderr.write(`mercurius-server listening on http://127.0.0.1:${port} (request log ${requestLog ? 'on' : 'off'})\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void app.close().finally(() => process.exit(0)));
}
