import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFolder, checkSource } from '../../scripts/layer-rules.js';

/**
 * The rules `npm run layers` adds to dependency-cruiser's: a Map or Set kept beyond one call is
 * made only in src/bounded/ or says why no client can grow it; createHash and createHmac are
 * imported only in src/secrets/ and the few modules allowed a digest of something not secret.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const kept = (text: string, file = 'src/feed/example.ts') => checkSource(file, text).filter((v) => v.rule === 'kept-collections');
const hashes = (text: string, file = 'src/feed/example.ts') => checkSource(file, text).filter((v) => v.rule === 'keyed-hashes');

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

describe('npm run layers', () => {
  const run = (folder?: string) =>
    spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/layer-rules.ts'), ...(folder ? [folder] : [])], { cwd: root, encoding: 'utf8' });

  it('fails on a violation, naming the file, the line and the rule, and passes once it is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer-rules-'));
    try {
      mkdirSync(join(dir, 'src', 'feed'), { recursive: true });
      writeFileSync(join(dir, 'src', 'feed', 'store.ts'), "import { createHash } from 'node:crypto';\nexport const hashes = new Map<string, string>();\n");
      const failing = run(dir);
      expect(failing.status).toBe(1);
      expect(failing.stderr).toContain('src/feed/store.ts:1 [keyed-hashes]');
      expect(failing.stderr).toContain('src/feed/store.ts:2 [kept-collections]');
      writeFileSync(join(dir, 'src', 'feed', 'store.ts'), 'export const names: ReadonlySet<string> = new Set([\'a\']);\n');
      expect(run(dir).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds nothing in src/', () => {
    expect(checkFolder(root)).toEqual([]);
  });
});
