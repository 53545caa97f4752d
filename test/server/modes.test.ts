import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';
import { startStack, type Stack } from '../helpers/stack.js';

const SANDBOX = 'https://studio.apollographql.com';
/** The explorer's script as the build named it (the run's build, test/helpers/build.global.ts). */
const explorerScript = () => `/graphql/explorer/${JSON.parse(readFileSync(new URL('../../dist/public/explorer/manifest.json', import.meta.url), 'utf8')).script}`;

describe('development mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ fallbackToken: 'demo-store-token' });
  });
  afterAll(() => stack.close());

  it('serves Apollo Sandbox by default, with the first query, the demo token and the bundled GraphiQL to fall back on', async () => {
    const response = await fetch(stack.bffUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' https://embeddable-sandbox.cdn.apollographql.com;");
    expect(csp).toContain('frame-src https://sandbox.embed.apollographql.com;');
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain('<title>Campaign GraphQL BFF · Apollo Sandbox</title>');
    const config = JSON.parse(/<script type="application\/json" id="explorer-config">(.*?)<\/script>/s.exec(html)![1]!);
    expect(config).toMatchObject({ headers: expect.stringContaining('Bearer demo-store-token'), query: expect.stringContaining('query FirstLook') });
    expect(config.sandbox).toMatchObject({ script: 'https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js', fallback: explorerScript().split('/').pop() });
    expect((await fetch(new URL(explorerScript(), stack.bffUrl))).status).toBe(200);
    const icon = await fetch(new URL('/favicon.ico', stack.bffUrl));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('serves GraphiQL alone with EXPLORER=graphiql, and no page with EXPLORER=off', async () => {
    for (const [explorer, page] of [['graphiql', /GraphiQL/], ['off', undefined]] as const) {
      const other = await startStack({ fallbackToken: 'demo-store-token', env: { EXPLORER: explorer } });
      try {
        const response = await fetch(other.bffUrl, { headers: { accept: 'text/html' } });
        const text = await response.text();
        if (page) {
          expect(text).toMatch(page);
          expect(text).toContain('Bearer demo-store-token');
          expect(response.headers.get('content-security-policy')).not.toMatch(/https?:/);
          expect((await fetch(new URL(explorerScript(), other.bffUrl))).status).toBe(200);
        } else {
          expect(response.headers.get('content-type')).not.toMatch(/html/);
          expect((await fetch(new URL(explorerScript(), other.bffUrl))).status).toBe(404);
          expect((await fetch(new URL('/favicon.ico', other.bffUrl))).status).toBe(404);
        }
        expect(text).not.toMatch(/sandbox/i);
      } finally {
        await other.close();
      }
    }
  });

  it('answers a CORS preflight from the Sandbox origin and from localhost', async () => {
    for (const origin of [SANDBOX, 'http://localhost:5173']) {
      const response = await fetch(stack.bffUrl, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    }
    const stranger = await fetch(stack.bffUrl, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('acts as the demo store when a request has no Authorization, and allows introspection', async () => {
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ campaigns(first: 1) { totalCount } __schema { queryType { name } } }' }),
    });
    const body = (await response.json() as any);
    expect(body.errors).toBeUndefined();
    expect(body.data.campaigns.totalCount).toBeGreaterThan(0);
    expect(body.data.__schema.queryType.name).toBe('Query');
  });

  it('does not fall back when a token is given but malformed', async () => {
    const response = await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic dXNlcjpwYXNz' },
      body: JSON.stringify({ query: '{ campaigns(first: 1) { totalCount } }' }),
    });
    expect(((await response.json() as any)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('production mode', () => {
  let stack: Stack;
  const log = captureLogs();
  const lines = log.lines;
  beforeAll(async () => {
    stack = await startStack({
      env: { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:1', CORS_ORIGINS: 'https://partner.example.com', EXPLORER: 'graphiql' },
      logger: log.logger,
    });
  });
  afterAll(() => stack.close());

  it('refuses introspection and hides field suggestions', async () => {
    const introspection = await stack.gql('{ __schema { types { name } } }');
    expect(introspection.status).toBe(400);
    expect(introspection.body.errors![0].message).toMatch(/introspection/i);
    const typo = await stack.gql('{ campaignz { totalCount } }');
    expect(typo.status).toBe(400);
    expect(typo.body.errors![0].message).not.toMatch(/Did you mean/);
  });

  it('serves no landing page, whatever EXPLORER says', async () => {
    const response = await fetch(stack.bffUrl, { headers: { accept: 'text/html' } });
    const text = await response.text();
    expect(text).not.toMatch(/sandbox/i);
    expect(text).not.toMatch(/GraphiQL/);
    expect(response.headers.get('content-type')).not.toMatch(/html/);
    const files = await fetch(new URL(explorerScript(), stack.bffUrl));
    expect(files.status).toBe(404);
  });

  it('wants a token: none is UNAUTHENTICATED, an unknown one too', async () => {
    const none = await stack.gql('{ campaigns(first: 1) { totalCount } }', undefined, null);
    expect(none.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    const unknown = await stack.gql('{ campaigns(first: 1) { totalCount } }', undefined, 'not-a-partner-token-123');
    expect(unknown.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(unknown.body)).not.toContain('not-a-partner-token-123');
  });

  it('shows no stack traces', async () => {
    await stack.admin('faults', { mode: 'malformed', operation: 'campaigns/get' });
    try {
      const { body } = await stack.gql('{ campaign(id: "1") { id card { title } } }');
      const text = JSON.stringify(body);
      expect(body.errors![0].extensions.code).toBe('BACKEND_BAD_RESPONSE');
      expect(text).not.toMatch(/stacktrace|\.ts:\d+|at .*\(/);
    } finally {
      await stack.admin('faults', undefined, 'DELETE');
    }
  });

  it('allows only the configured CORS origins', async () => {
    const preflight = (origin: string) =>
      fetch(stack.bffUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight('https://partner.example.com')).headers.get('access-control-allow-origin')).toBe('https://partner.example.com');
    expect((await preflight(SANDBOX)).headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight('http://localhost:3000')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('logs one JSON line per request with what operations need, and never a token', async () => {
    const token = 'demo-aggregator-token';
    await fetch(stack.bffUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'trace-me-42' },
      body: JSON.stringify({ query: 'query LoggedOne { campaigns(first: 2) { nodes { id card { title } } } }' }),
    });
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === 'trace-me-42');
    expect(line).toMatchObject({ msg: 'graphql request', operation: 'LoggedOne', outcome: 'ok', backendCalls: 3 });
    expect(line.durationMs).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain('demo-store-token');
  });
});
