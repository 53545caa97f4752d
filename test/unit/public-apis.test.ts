import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sources = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('generated'))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)));

/**
 * What reaches into a library past its public API. docs/adr/library-apis.md lists each library
 * this service relies on, what of it, and the one place a public API lacked what was needed.
 */
const PRIVATE = [
  { what: "pino's internal symbols", pattern: /\bsymbols\b.*\b\w+Sym\b|pino\.symbols/ },
  { what: 'a module path inside a package (dist/, lib/, src/, build/)', pattern: /from '(?!\.)[^']*\/(?:dist|lib|src|build|esm|cjs)\// },
  { what: 'a registered symbol (how libraries name their internals)', pattern: /Symbol\.for\(/ },
  { what: "zod 3's internals", pattern: /\._def\b/ },
  { what: "zod 4's internals", pattern: /\._zod\b/ },
];

/** The one exception, with its reason in docs/adr/library-apis.md: zod has no public check in place. */
const ALLOWED: Record<string, string[]> = { "zod 4's internals": ['src/campaign-api/answer-check.ts'] };

describe('library APIs', () => {
  it('src/ uses the public API of every library, but where docs/adr/library-apis.md says why not', () => {
    expect(sources.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of sources) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*(?:\*|\/\/)/.test(line)) return;
        for (const { what, pattern } of PRIVATE) {
          if (pattern.test(line) && !ALLOWED[what]?.includes(file)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
