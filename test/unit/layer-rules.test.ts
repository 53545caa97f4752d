import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFolder, checkSource, checkSources } from '../../scripts/layer-rules.js';

/**
 * The rules `npm run layers` adds to dependency-cruiser's: a Map or Set kept beyond one call is
 * made only in src/bounded/ or says why no client can grow it; createHash and createHmac are
 * imported only in src/secrets/ and the few modules allowed a digest of something not secret; the
 * outage error is made and the circuit breaker told only where a refusal is told apart from an
 * outage; no folder re-exports what another owns; the folders of src/ form no cycle.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const kept = (text: string, file = 'src/feed/example.ts') => checkSource(file, text).filter((v) => v.rule === 'kept-collections');
const hashes = (text: string, file = 'src/feed/example.ts') => checkSource(file, text).filter((v) => v.rule === 'keyed-hashes');
const outages = (text: string, file: string) => checkSource(file, text).filter((v) => v.rule === 'refusal-not-outage');
const reExports = (text: string, file = 'src/campaign-api/index.ts') => checkSource(file, text).filter((v) => v.rule === 'cross-folder-re-exports');
const cycles = (files: Record<string, string>) => checkSources(Object.entries(files).map(([file, text]) => ({ file, text }))).filter((v) => v.rule === 'folder-cycles');

describe('kept collections', () => {
  it('refuse a Map or Set kept beyond one call: module level, class field, property, or a closure handed out', () => {
    const violations = kept(
      [
        'const byToken = new Map<string, string>();',
        'export class Hub { readonly #partners = new Map<string, number>(); watched = new Set<string>(); }',
        'export function attach(target: { seen?: Set<string> }) { target.seen = new Set(); }',
        'export function factory() { const local = new Map<string, number>(); return { add: (k: string) => local.set(k, 1) }; }',
        'export function listener(on: (f: () => void) => void) { const seen = new Set<string>(); on(() => seen.add("x")); }',
        'let outer: Map<string, number> | undefined; export function later() { outer = new Map(); }',
        'export function handOut() { return { store: new Map() }; }',
        'export function returned(): Map<string, number> { const made = new Map<string, number>(); made.set("a", 1); return made; }',
        'export function viaHelper() { const m = new Map<string, number>(); const read = (k: string) => m.get(k); return { read: () => read("a") }; }',
      ].join('\n'),
    );
    expect(violations.map((v) => v.line)).toEqual([1, 2, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(violations[0]!.message).toMatch(/BoundedMemory \(src\/bounded\/\).*"\/\/ bounded: <why>"/);
  });

  it('let pass what one call uses, what nothing can add to, weak collections, and a collection that says why it is bounded', () => {
    const violations = kept(
      [
        'export function count(items: string[]) { const seen = new Set<string>(); for (const i of items) seen.add(i); return items.filter((i) => seen.has(i)).length; }',
        'export function walk(list: string[]) { const found = new Map<string, number>(); const visit = (s: string) => found.set(s, 1); for (const s of list) visit(s); return found.size; }',
        'export function once(): ReadonlyMap<string, number> { const made = new Map<string, number>(); made.set("a", 1); return made; }',
        "const METHODS: ReadonlySet<string> = new Set(['GET', 'POST']);",
        'export class Cache { readonly #byKey = new WeakMap<object, string>(); }',
        '// bounded: the channels the code subscribes to, a handful.',
        'const channels = new Map<string, string>();',
        'export const unique = (xs: string[]) => [...new Set(xs)];',
        'export class Known {',
        '  /** The document\'s operations, by name: bounded: the document\'s own operations. */',
        '  readonly #operations = new Map<string, number>();',
        '}',
      ].join('\n'),
    );
    expect(violations).toEqual([]);
  });

  it('want a reason in the marker, and allow the bounded stores themselves', () => {
    expect(kept('// bounded:\nconst m = new Map();')).toHaveLength(1);
    expect(kept('// bounded: ok\nconst m = new Map();')).toHaveLength(1);
    expect(kept('const m = new Map();', 'src/bounded/memory.ts')).toEqual([]);
  });
});

describe('keyed hashes', () => {
  it('refuse createHash and createHmac outside src/secrets/, whatever the import looks like', () => {
    const violations = hashes(
      [
        "import { createHash } from 'node:crypto';",
        "import { randomUUID, createHmac as hmac } from 'crypto';",
        "import * as crypto from 'node:crypto';",
        "import crypto2 from 'node:crypto';",
        "export { createHash } from 'node:crypto';",
        "export async function later() { return import('node:crypto'); }",
      ].join('\n'),
    );
    expect(violations.map((v) => v.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(violations[0]!.message).toMatch(/keyed hash made there/);
  });

  it('let pass what is not a hash, the secrets module, and the digests listed with their reason', () => {
    expect(hashes("import { randomUUID, timingSafeEqual } from 'node:crypto';")).toEqual([]);
    expect(hashes("import { createHmac } from 'node:crypto';", 'src/secrets/keyed-hash.ts')).toEqual([]);
    expect(hashes("import { createHash } from 'node:crypto';", 'src/pipeline/documents.ts')).toEqual([]);
    // Allowed one digest, not the other.
    expect(hashes("import { createHmac } from 'node:crypto';", 'src/pipeline/documents.ts')).toHaveLength(1);
  });
});

describe('a refusal is not an outage', () => {
  it('refuses the outage error made or extended, and the breaker imported or told, anywhere else', () => {
    const client = outages(
      [
        "import { HttpStatusError } from './errors.js';",
        "import { Breaker, Bulkhead } from './resilience.js';",
        'export const wrap = (status: number) => new HttpStatusError("get", status);',
        'export function refuse(host: { breaker: Breaker }) { host.breaker.failed("closed"); }',
        'export function elsewise(breaker: Breaker) { breaker.answered("closed"); breaker.abandoned("probe"); return breaker.admit(); }',
      ].join('\n'),
      'src/campaign-api/http-client.ts',
    );
    // http-client.ts may make the client's breaker (line 2), never make the outage error or tell the breaker.
    expect(client.map((v) => v.line)).toEqual([3, 4, 5, 5, 5]);
    expect(client[0]!.message).toMatch(/HttpStatusError made outside blames\(\) \(src\/campaign-api\/envelope\.ts\)/);
    expect(client[1]!.message).toMatch(/circuit breaker told of an attempt \(failed\) outside src\/campaign-api\/backend-call\.ts/);
    const domain = outages(
      [
        "import { HttpStatusError } from '../campaign-api/errors.js';",
        "import { Breaker as CircuitBreaker } from '../campaign-api/resilience.js';",
        'export class GatewayRefusal extends HttpStatusError {}',
        "import * as resilience from '../campaign-api/resilience.js';",
        'export const another = new resilience.Breaker({ consecutiveFailures: 1, halfOpenAfterMs: 1 });',
        'export type Kept = resilience.Breaker;',
        "export { Breaker } from '../campaign-api/resilience.js';",
      ].join('\n'),
      'src/campaigns/errors.ts',
    );
    expect(domain.map((v) => v.line)).toEqual([2, 3, 5, 6, 7]);
    expect(domain[0]!.message).toMatch(/Breaker imported outside src\/campaign-api\/backend-call\.ts/);
  });

  it('lets pass blames() making the outage error, the backend call telling the breaker, and what only reads them', () => {
    expect(outages('export const verdict = (s: number) => ({ kind: "failed", error: new HttpStatusError("get", s) });', 'src/campaign-api/envelope.ts')).toEqual([]);
    expect(
      outages("import { type Breaker } from './resilience.js';\nexport const told = (host: { breaker: Breaker }) => host.breaker.failed('closed');", 'src/campaign-api/backend-call.ts'),
    ).toEqual([]);
    expect(outages("import { Breaker } from './resilience.js';\nconst breaker = new Breaker({ consecutiveFailures: 5, halfOpenAfterMs: 5 });\nexport const state = () => breaker.state();", 'src/campaign-api/http-client.ts')).toEqual([]);
    expect(
      outages("import { HttpStatusError } from '../campaign-api/index.js';\nexport const isOutage = (e: unknown) => e instanceof HttpStatusError;\nexport const log = (cacheLog: { failed(e: unknown): void }) => cacheLog.failed(1);", 'src/server/backend.ts'),
    ).toEqual([]);
  });
});

describe('re-exports across folders', () => {
  it('refuse exporting again what another folder owns, by `export from` or by exporting an imported name', () => {
    const violations = reExports(
      [
        "export * from '../text/text-rule.js';",
        "export { quote } from '../text/received-value.js';",
        "export type { AnswerPath } from '../tracing/graphql.js';",
        "import { isMoney } from '../text/money.js';",
        'export { isMoney };',
        "import type { Span } from '../tracing/rest.js';",
        'export type { Span as RestSpan };',
        "import * as secrets from '../secrets/index.js';",
        'export { secrets };',
        "import bounded from '../bounded/index.js';",
        'export default bounded;',
        "export * as tracing from '../tracing/index.js';",
      ].join('\n'),
    );
    expect(violations.map((v) => v.line)).toEqual([1, 2, 3, 5, 7, 9, 11, 12]);
    expect(violations[0]!.message).toMatch(/re-exported from src\/text\/: import it from src\/text\/ where it is used/);
  });

  it("let pass a folder's own barrel, a package's types, the configuration's entry, and what a module declares", () => {
    const own = [
      "export * from './enums.js';",
      "export { operations } from './operations.js';",
      "export type * from './api.js';",
      "import { pino, type Logger } from 'pino';",
      'export type { Logger };',
      "export type { Tracer } from '@opentelemetry/api';",
      "import { quote } from '../text/received-value.js';",
      'export const quoted = (s: string) => quote(s);',
      'export { pino as makeLogger };',
    ].join('\n');
    expect(reExports(own)).toEqual([]);
    expect(reExports("import { ConfigError } from './config/error.js';\nexport { ConfigError };", 'src/config.ts')).toEqual([]);
  });
});

describe('folder cycles', () => {
  it('refuse two folders importing each other, type-only imports included, naming an import of each step', () => {
    const violations = cycles({
      'src/feed/cache.ts': "import type { Item } from '../schema/offers.js';\nexport const x = 1;",
      'src/schema/offers.ts': "export interface Item { id: number }\nimport type { FeedCache } from '../feed/store.js';",
      'src/feed/store.ts': 'export interface FeedCache { read(): void }',
    });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ file: 'src/feed/cache.ts', line: 1 });
    expect(violations[0]!.message).toBe(
      'the folders feed, schema import each other: feed → schema (src/feed/cache.ts:1 imports src/schema/offers.ts), schema → feed (src/schema/offers.ts:2 imports src/feed/store.ts); move what one of them owns to the layer where it belongs',
    );
  });

  it('count the imports of generated files, which the other rules leave to their generator', () => {
    const violations = checkSources([
      { file: 'src/schema/generated/resolvers-types.ts', text: "import type { CampaignRef } from '../../campaigns/models.js';\nexport const kept = new Map();", generated: true },
      { file: 'src/campaigns/resolvers/campaign.ts', text: "import type { CampaignResolvers } from '../../schema/generated/resolvers-types.js';" },
    ]);
    expect(violations.map((v) => v.rule)).toEqual(['folder-cycles']);
    expect(violations[0]!.message).toContain('schema → campaigns (src/schema/generated/resolvers-types.ts:1 imports src/campaigns/models.ts)');
  });

  it('refuse a longer way round, through re-exports, import() calls and import() types', () => {
    const violations = cycles({
      'src/config/tracing.ts': "import { LIMIT } from '../tracing/text.js';\nexport const a = LIMIT;",
      'src/tracing/settings.ts': "export { readSettings } from '../observability/read.js';",
      'src/observability/read.ts': "export const readSettings = () => import('../config/tracing.js');",
      'src/server/a.ts': "export type Main = typeof import('../main.js');",
      'src/main.ts': "import { start } from './server/a.js';",
    });
    expect(violations.map((v) => v.message.split(':')[0])).toEqual(['the folders config, observability, tracing import each other', 'the folders main, server import each other']);
    expect(violations[0]!.message).toContain('config → tracing (src/config/tracing.ts:1 imports src/tracing/text.ts), tracing → observability (src/tracing/settings.ts:1');
    expect(violations[0]!.message).toContain('observability → config (src/observability/read.ts:1 imports src/config/tracing.ts)');
  });

  it("let pass imports downward, within a folder, and between the configuration's files at the root and its folder", () => {
    expect(
      cycles({
        'src/feed/a.ts': "import { b } from '../campaigns/b.js';\nimport { c } from './c.js';",
        'src/feed/c.ts': "import { a } from './a.js';",
        'src/campaigns/b.ts': "import { t } from '../text/t.js';",
        'src/config.ts': "import { server } from './config/server.js';",
        'src/config/server.ts': "import type { Config } from '../config.js';\nimport { parse } from 'zod';",
        'src/config-names.ts': "import { envSchema } from './config.js';",
      }),
    ).toEqual([]);
  });
});

describe('npm run layers', () => {
  const run = (folder?: string) =>
    spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/layer-rules.ts'), ...(folder ? [folder] : [])], { cwd: root, encoding: 'utf8' });

  it('fails on a violation, naming the file, the line and the rule, and passes once it is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer-rules-'));
    try {
      for (const folder of ['feed', 'schema', 'campaigns']) mkdirSync(join(dir, 'src', folder), { recursive: true });
      writeFileSync(join(dir, 'src', 'feed', 'store.ts'), "import { createHash } from 'node:crypto';\nexport const hashes = new Map<string, string>();\n");
      writeFileSync(join(dir, 'src', 'schema', 'context.ts'), "import type { Loaders } from '../campaigns/loaders.js';\nexport * from '../campaigns/loaders.js';\n");
      writeFileSync(join(dir, 'src', 'campaigns', 'loaders.ts'), "import type { Context } from '../schema/context.js';\nexport const failure = () => new HttpStatusError('get', 404);\n");
      const failing = run(dir);
      expect(failing.status).toBe(1);
      expect(failing.stderr).toContain('src/feed/store.ts:1 [keyed-hashes]');
      expect(failing.stderr).toContain('src/feed/store.ts:2 [kept-collections]');
      expect(failing.stderr).toContain('src/schema/context.ts:2 [cross-folder-re-exports]');
      expect(failing.stderr).toContain('src/campaigns/loaders.ts:2 [refusal-not-outage]');
      expect(failing.stderr).toContain('src/campaigns/loaders.ts:1 [folder-cycles] the folders campaigns, schema import each other');
      writeFileSync(join(dir, 'src', 'feed', 'store.ts'), 'export const names: ReadonlySet<string> = new Set([\'a\']);\n');
      writeFileSync(join(dir, 'src', 'schema', 'context.ts'), 'export interface Context { token: string }\n');
      writeFileSync(join(dir, 'src', 'campaigns', 'loaders.ts'), "import type { Context } from '../schema/context.js';\nexport const tokenOf = (c: Context) => c.token;\n");
      expect(run(dir).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds nothing in src/', () => {
    expect(checkFolder(root)).toEqual([]);
  });
});
