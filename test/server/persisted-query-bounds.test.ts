import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { app, DEMO_APP, partner, post } from '../apps/support.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * Persisted queries against hostile texts, on the built entry in production with the in-memory
 * cache and a small heap: a valid document followed by megabytes of comment (no tokens, so the
 * token limit lets it through) sent with its hash. Kept, sixteen of them would take more heap than
 * the process has; none is kept, for any caller, and what could be registered is only what a
 * caller who may run it sent, no longer than a document worth keeping.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const MB = 1024 * 1024;
const extensions = (text: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(text) } });
/** A valid document, then a comment of `bytes`: different for each `i`. */
const padded = (i: number, bytes: number) => `{categories{id}}\n#${i} ${'x'.repeat(bytes)}`;

describe('persisted queries in production, in memory', () => {
  let emulator: RunningEmulator;
  let bff: BuiltEntry;
  let dir: string;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    dir = mkdtempSync(join(tmpdir(), 'apq-bounds-'));
    writeFileSync(join(dir, 'app-keys.json'), JSON.stringify(DEMO_APP));
    bff = await startBuiltEntry({
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        CAMPAIGN_API_URL: emulator.url,
        APP_KEYS_FILE: join(dir, 'app-keys.json'),
        NODE_OPTIONS: '--max-old-space-size=96',
      },
    });
  });
  afterAll(async () => {
    await bff?.stop();
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The heap in use, as the metrics listener reports it. */
  const heapUsed = async () => {
    const text = await (await fetch(bff.metricsUrl!)).text();
    return Number(/^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text)?.[1]);
  };
  const byHash = (text: string, headers: Record<string, string>) => post(bff.url, { extensions: extensions(text) }, headers);
  /**
   * Waits for the heap to come back within `allowance` of `before` once the garbage of the bodies
   * is collected; sixteen texts kept would hold it 64 MB above for good. While it waits, a
   * partner's query of megabytes, which is never kept (documents.ts), makes garbage: a process
   * that allocates nothing may not collect its old generation within the wait on a busy machine,
   * and the heap it reports would still count the bodies' garbage.
   */
  const heapBackWithin = async (before: number, allowance: number) => {
    let used = await heapUsed();
    for (let n = 0, deadline = Date.now() + 20_000; used - before >= allowance && Date.now() < deadline; used = await heapUsed(), n++) {
      const garbage = await post(bff.url, { query: padded(900 + n, 4 * MB) }, partner(DEMO_TOKENS.store));
      expect(garbage.body.errors).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return used - before;
  };

  it('keeps no text of an anonymous caller, of any size: the heap stays bounded and no hash runs', { timeout: 120_000 }, async () => {
    const before = await heapUsed();
    // Megabytes are refused unread (a body without a token is bounded by PUBLIC_BODY_LIMIT_BYTES)...
    const texts = Array.from({ length: 16 }, (_, i) => padded(i, 4 * MB));
    for (const text of texts) {
      const answer = await post(bff.url, { query: text, extensions: extensions(text) });
      expect(answer.status, answer.text.slice(0, 200)).toBe(413);
      expect(answer.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    }
    // ...and what fits is run, refused for want of a token, and not kept either.
    const fitting = Array.from({ length: 16 }, (_, i) => padded(300 + i, 60 * 1024));
    for (const text of fitting) {
      const answer = await post(bff.url, { query: text, extensions: extensions(text) });
      expect(answer.status, answer.text.slice(0, 200)).toBe(200);
      expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    texts.push(...fitting);
    const small = '{ categories { id name } }';
    await post(bff.url, { query: small, extensions: extensions(small) });
    for (const text of [...texts, small]) {
      for (const headers of [{}, partner(DEMO_TOKENS.store)]) {
        expect((await byHash(text, headers)).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      }
    }
    // Kept, the sixteen texts alone would be 64 MB of a 96 MB heap.
    expect(await heapBackWithin(before, 16 * MB)).toBeLessThan(16 * MB);
    expect(bff.output()).not.toMatch(/heap out of memory/i);
  });

  it("keeps a partner's text only when it is no longer than a document worth keeping", { timeout: 120_000 }, async () => {
    const before = await heapUsed();
    const texts = Array.from({ length: 16 }, (_, i) => padded(100 + i, 4 * MB));
    for (const text of texts) {
      const answer = await post(bff.url, { query: text, extensions: extensions(text) }, partner(DEMO_TOKENS.store));
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.categories.length).toBeGreaterThanOrEqual(10);
    }
    for (const text of texts) expect((await byHash(text, partner(DEMO_TOKENS.store))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(await heapBackWithin(before, 16 * MB)).toBeLessThan(16 * MB);

    // A text of a usual length is registered, and runs by its hash alone.
    const usual = padded(200, 1000);
    expect((await post(bff.url, { query: usual, extensions: extensions(usual) }, partner(DEMO_TOKENS.store))).body.errors).toBeUndefined();
    const known = await byHash(usual, partner(DEMO_TOKENS.store));
    expect(known.body.errors).toBeUndefined();
    expect(known.body.data.categories.length).toBeGreaterThanOrEqual(10);
  });

  it('registers nothing for an app key, which runs only the manifest in production, nor for a refused token', async () => {
    const text = '{ categories { id } }\n# from an app';
    const refused = await post(bff.url, { query: text, extensions: extensions(text) }, app());
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
    expect((await byHash(text, partner(DEMO_TOKENS.store))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    // A token the campaign API refused: once it is known refused, what it sends is not kept.
    const madeUp = partner('made-up-token-of-a-usual-length');
    const first = '{ categories { name } }\n# first';
    expect((await post(bff.url, { query: first, extensions: extensions(first) }, madeUp)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const second = '{ categories { name } }\n# second';
    expect((await post(bff.url, { query: second, extensions: extensions(second) }, madeUp)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await byHash(second, partner(DEMO_TOKENS.store))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});
