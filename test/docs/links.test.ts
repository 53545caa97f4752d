import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, proseOf, root } from './markdown.js';

/**
 * Every relative link of the documentation resolves: the file or folder exists, and an anchor
 * names a heading of the Markdown file it points to (as GitHub makes anchors from headings).
 */

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''))
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  for (const [, heading] of proseOf(file).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

interface Link {
  from: string;
  target: string;
}

function linksOf(file: string): Link[] {
  const text = proseOf(file).replace(/`[^`\n]*`/g, '');
  const links: Link[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ from: file, target: target! });
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

function problem({ from, target }: Link): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const resolved = path === '' ? from : normalize(join(dirname(from), decodeURI(path)));
  if (resolved.startsWith('..')) return `${from}: ${target} leaves the repository`;
  const full = join(root, resolved);
  if (!existsSync(full)) return `${from}: ${target} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(full).isDirectory() || !resolved.endsWith('.md')) return `${from}: ${target} has an anchor but is not a Markdown file`;
  return anchorsOf(resolved).has(anchor) ? undefined : `${from}: ${target} names no heading of ${resolved}`;
}

describe('documentation links', () => {
  const files = documentationFiles();
  const links = files.flatMap(linksOf);

  it('finds the links', () => {
    expect(links.length).toBeGreaterThan(100);
  });

  it('resolves every relative link and anchor', () => {
    expect(links.map(problem).filter(Boolean)).toEqual([]);
  });

  // Paths a document names in backticks (`src/…`, `test/…`) exist. Not in client/README.md, whose
  // paths are the kit's own; not in decision records, which may name what a decision removed; not
  // what a run writes (bench/results/).
  it('names only repository paths that exist', () => {
    const missing: string[] = [];
    for (const file of files.filter((f) => !f.startsWith('client/') && !f.startsWith('docs/adr/'))) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, path] of text.matchAll(/`((?:src|test|bench|scripts|deploy|client|docs|schema)\/[\w./-]+)`/g)) {
        const clean = path!.replace(/[/.]+$/, '');
        if (clean.startsWith('bench/results/')) continue;
        if (!existsSync(join(root, clean))) missing.push(`${file}: ${clean}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(slug('Graceful shutdown and load balancers')).toBe('graceful-shutdown-and-load-balancers');
    expect(slug('Live status: subscriptions over a split link')).toBe('live-status-subscriptions-over-a-split-link');
    expect(slug('Apps: public keys in front of partner tokens')).toBe('apps-public-keys-in-front-of-partner-tokens');
    expect(slug('`CACHE_URL`’s password.')).toBe('cache_urls-password');
  });

  it('reads every Markdown file it links to', () => {
    for (const file of files) expect(readFileSync(join(root, file), 'utf8').length).toBeGreaterThan(0);
  });
});
