import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCampaignBody } from '../../bench/lib/campaign-samples.js';
import { FEED_DOCUMENT } from '../../bench/lib/feed.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { CAMPAIGN_CHANGED, streamUrl } from '../subscriptions/support.js';

/**
 * Answers in brotli or gzip, as the request's Accept-Encoding admits and the body is worth it,
 * read as bytes off the wire (fetch would decode them): each coding decodes to the same JSON, has
 * an ETag of its own and `Vary: Accept-Encoding`; a 304 per coding; HEAD as GET; small answers,
 * SSE streams and clients that admit no coding get the body as it is.
 */

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

function raw(url: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function decoded(answer: Raw): unknown {
  const coding = answer.headers['content-encoding'];
  const bytes = coding === 'br' ? brotliDecompressSync(answer.bytes) : coding === 'gzip' ? gunzipSync(answer.bytes) : answer.bytes;
  return JSON.parse(bytes.toString('utf8'));
}

const feedUrl = (bffUrl: string, first: number) => `${bffUrl}?${new URLSearchParams({ query: FEED_DOCUMENT, variables: JSON.stringify({ first }) })}`;

/** An app whose partner has 100 running campaigns (an aggregator's campaign runs from upload), as the bench's feed. */
const PARTNER_TOKEN = 'compression-partner-token';
const APP_KEY = 'compression-app-key';
const APP = { [APP_KEY]: { name: 'Compression app', partnerTokens: [PARTNER_TOKEN] } };
const app = () => ({ 'x-app-key': APP_KEY });

async function seed(stack: Stack): Promise<void> {
  await stack.admin('partners', { token: PARTNER_TOKEN, kind: 'aggregator' });
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${stack.emulatorUrl}/v1/campaigns/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${PARTNER_TOKEN}` },
      body: JSON.stringify(restCampaignBody(700_001 + i)),
    });
    expect(response.status).toBe(200);
  }
}

describe('compressed answers', () => {
  let stack: Stack;
  let feed: string;
  const fetchFeed = (headers: Record<string, string> = {}, method = 'GET') => raw(feed, { ...app(), ...headers }, method);

  beforeAll(async () => {
    stack = await startStack({ appKeys: APP, emulator: { moderation: { mode: 'manual' } }, env: { SUBSCRIPTION_KEEPALIVE_MS: '200' } });
    await seed(stack);
    feed = feedUrl(stack.bffUrl, 20);
  });
  afterAll(() => stack?.close());

  it('sends brotli or gzip as admitted, each decoding to the same JSON, with its own ETag and a right Content-Length', async () => {
    const plain = await fetchFeed();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = decoded(plain) as { data: { offerFeed: { nodes: unknown[] } } };
    expect(json.data.offerFeed.nodes).toHaveLength(20);
    expect(plain.bytes.length).toBeGreaterThan(1024);

    const br = await fetchFeed({ 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await fetchFeed({ 'accept-encoding': 'gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const answer of [plain, br, gzip]) {
      expect(Number(answer.headers['content-length'])).toBe(answer.bytes.length);
      expect(answer.headers.vary).toBe('Origin, X-App-Key, Accept, Accept-Encoding');
      expect(answer.headers['cache-control']).toMatch(/^public/);
      expect(decoded(answer)).toEqual(json);
    }
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(gzip.bytes.length).toBeLessThan(plain.bytes.length / 4);
    // One representation per coding: three strong validators of the same answer.
    const tag = plain.headers.etag!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(br.headers.etag).toBe(`${tag.slice(0, -1)}-br"`);
    expect(gzip.headers.etag).toBe(`${tag.slice(0, -1)}-gzip"`);
    // A warm answer sent again (its compressed copy kept) is the same bytes.
    const again = await fetchFeed({ 'accept-encoding': 'br' });
    expect(again.bytes.equals(br.bytes)).toBe(true);
    expect(again.headers.etag).toBe(br.headers.etag);
  });

  it('follows the quality values, brotli winning a tie, and the body as it is when no coding is admitted', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0.8, br;q=0.9', 'br'],
      ['*', 'br'],
      ['br;q=0, *', 'gzip'],
      ['identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['*;q=0', undefined],
      ['gzip;q=0.5, identity', undefined],
      ['deflate', undefined],
      ['GZIP', 'gzip'],
      ['gzip;q=2', undefined],
      ['', undefined],
    ];
    for (const [header, coding] of cases) {
      const answer = await fetchFeed({ 'accept-encoding': header });
      expect([header, answer.headers['content-encoding']]).toEqual([header, coding]);
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect((decoded(answer) as { data: unknown }).data).toBeDefined();
    }
  });

  it('answers 304 to the ETag of the coding it would send, and the full answer to another coding\'s', async () => {
    const br = await fetchFeed({ 'accept-encoding': 'br' });
    const gzip = await fetchFeed({ 'accept-encoding': 'gzip' });
    const plain = await fetchFeed();
    for (const [sent, answer] of [['br', br], ['gzip', gzip], ['identity', plain]] as const) {
      const etag = answer.headers.etag!;
      const notModified = await fetchFeed({ 'accept-encoding': sent, 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(notModified.bytes.length).toBe(0);
      expect(notModified.headers.etag).toBe(etag);
      expect(notModified.headers.vary).toBe('Origin, X-App-Key, Accept, Accept-Encoding');
      // A cache validating the copies it holds names them all, and is told which one is current.
      const several = await fetchFeed({ 'accept-encoding': sent, 'if-none-match': `"other", ${br.headers.etag}, W/${gzip.headers.etag}, ${plain.headers.etag}` });
      expect([sent, several.status, several.headers.etag]).toEqual([sent, 304, etag]);
    }
    const otherCoding = await fetchFeed({ 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! });
    expect(otherCoding.status).toBe(200);
    expect(otherCoding.headers['content-encoding']).toBe('gzip');
    expect(decoded(otherCoding)).toEqual(decoded(plain));
  });

  it('answers HEAD as GET, with the Content-Length of the coding, and no body', async () => {
    for (const coding of ['br', 'gzip', 'identity']) {
      const got = await fetchFeed({ 'accept-encoding': coding });
      const head = await fetchFeed({ 'accept-encoding': coding }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      for (const name of ['content-length', 'content-encoding', 'etag', 'vary', 'content-type', 'cache-control']) {
        expect([coding, name, head.headers[name]]).toEqual([coding, name, got.headers[name]]);
      }
    }
  });

  it('compresses answers it does not remember, and sends small ones as they are', async () => {
    const token = { authorization: `Bearer ${DEMO_TOKENS.store}`, 'content-type': 'application/json', 'accept-encoding': 'br, gzip' };
    const big = await raw(stack.bffUrl, token, 'POST', JSON.stringify({ query: '{ campaigns(first: 20) { nodes { id status card { title description discountLabel } } } }' }));
    expect(big.status).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.etag).toBeUndefined();
    expect((decoded(big) as { data: { campaigns: { nodes: unknown[] } } }).data.campaigns.nodes.length).toBeGreaterThan(0);

    const small = await raw(stack.bffUrl, token, 'POST', JSON.stringify({ query: '{ __typename }' }));
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary ?? '').not.toContain('Accept-Encoding');
    expect(decoded(small)).toEqual({ data: { __typename: 'Query' } });
    // A refusal is short and never stored: as it is.
    const refused = await raw(stack.bffUrl, token, 'POST', JSON.stringify({ query: `{ ${'campaignz '.repeat(200)} }` }));
    expect(refused.status).toBe(400);
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses a subscription stream', async () => {
    const stream = await new Promise<{ headers: IncomingHttpHeaders; first: string }>((resolve, reject) => {
      const req = request(
        streamUrl(stack.bffUrl),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'br, gzip', authorization: `Bearer ${DEMO_TOKENS.store}` },
        },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            resolve({ headers: res.headers, first: chunk.toString('utf8') });
            req.destroy();
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ query: CAMPAIGN_CHANGED }));
    });
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(['none', undefined]).toContain(stream.headers['content-encoding']);
    // Events (or the keep-alive comment) as text, each as it happens.
    expect(stream.first).toMatch(/^(:|event:|data:)/);
  });

  it('measures bytes per feed card, raw and in each coding', async () => {
    const lines: string[] = [];
    for (const cards of [20, 100]) {
      const sizes: Record<string, number> = {};
      for (const coding of ['identity', 'gzip', 'br']) {
        const answer = await raw(feedUrl(stack.bffUrl, cards), { ...app(), 'accept-encoding': coding });
        expect((decoded(answer) as { data: { offerFeed: { nodes: unknown[] } } }).data.offerFeed.nodes).toHaveLength(cards);
        sizes[coding] = answer.bytes.length;
      }
      lines.push(`${cards} cards: ${Object.entries(sizes).map(([coding, bytes]) => `${coding} ${bytes} B (${(bytes / cards).toFixed(0)} B/card)`).join(', ')}`);
      expect(sizes.br).toBeLessThan(sizes.identity! / 4);
      expect(sizes.gzip).toBeLessThan(sizes.identity! / 4);
    }
    console.log(lines.join('\n'));
  });

  it('reads a hostile Accept-Encoding no further than a real one can be', async () => {
    // Megabytes: refused by the HTTP parser before any of it is read, and the server goes on.
    const huge = await raw(feed, { ...app(), 'accept-encoding': `gzip;q=0.1, ${'x-unknown;q=0.5, '.repeat(70_000)}br` }).catch((error: Error) => error);
    if (!(huge instanceof Error)) expect(huge.status).toBe(431);
    // As long as the server takes a header: read up to its first KiB, so a coding named after it is not seen.
    const long = await fetchFeed({ 'accept-encoding': `gzip;q=0.1, ${'x-unknown;q=0.5, '.repeat(800)}br` });
    expect(long.status).toBe(200);
    expect(long.headers['content-encoding']).toBe('gzip');
    expect((decoded(long) as { data: { offerFeed: { nodes: unknown[] } } }).data.offerFeed.nodes).toHaveLength(20);
  });
});

describe('COMPRESSION=false', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ appKeys: APP, emulator: { moderation: { mode: 'manual' } }, env: { COMPRESSION: 'false' } });
    await seed(stack);
  });
  afterAll(() => stack?.close());

  it('sends every answer as it is, with the ETag and Vary it had', async () => {
    const answer = await raw(feedUrl(stack.bffUrl, 20), { ...app(), 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBe('Origin, X-App-Key, Accept');
    expect(answer.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(answer.headers.etag).not.toMatch(/-(br|gzip)"$/);
  });
});
