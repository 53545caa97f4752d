import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/config.js';
import { root } from './markdown.js';

/**
 * SECURITY.md quotes the default of each limit beside its variable: `` `MAX_TOKENS` (5000) ``,
 * `` `BACKEND_MAX_CONCURRENT`/`BACKEND_MAX_QUEUE` (256/10,000) ``, `` `FEED_TTL_MS` (30 s) ``.
 * Each quoted number is read back and compared with the default the configuration's schema
 * applies when the variable is unset, so a default changed in src/config/ fails here until the
 * page says the same.
 */

interface QuotedDefault {
  names: string[];
  /** The numbers quoted, one per name, as written. */
  values: string[];
  line: number;
}

const NAME = '`([A-Z][A-Z0-9_]+)`';
/** One or more backticked names joined by `/`, then ` (` or `, ` and a number. */
const QUOTE = new RegExp(`${NAME}((?:/${NAME})*)(?: \\(|, )(\\d[\\d,]*(?: ?[a-zA-Z]+)?(?:/\\d[\\d,]*(?: ?[a-zA-Z]+)?)*)`, 'g');

/** Every default a Markdown text quotes beside a variable name. */
function quotedDefaults(markdown: string): QuotedDefault[] {
  const found: QuotedDefault[] = [];
  markdown.split('\n').forEach((text, index) => {
    for (const match of text.matchAll(QUOTE)) {
      const names = [match[1]!, ...[...(match[2] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)];
      found.push({ names, values: match[match.length - 1]!.split('/'), line: index + 1 });
    }
  });
  return found;
}

/** A quoted number in the variable's own unit: `30 s` of a `_MS` variable is 30000. */
function quotedValue(name: string, written: string): number {
  const match = /^(\d[\d,]*)(?: ?([a-zA-Z]+))?$/.exec(written.trim());
  if (!match) throw new Error(`${name}: cannot read ${JSON.stringify(written)}`);
  const value = Number(match[1]!.replace(/,/g, ''));
  const unit = match[2];
  if (name.endsWith('_MS') && unit === 's') return value * 1000;
  if (name.endsWith('_MS') && unit === 'min') return value * 60_000;
  return value;
}

const shape = envSchema.shape as Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>;

describe('the defaults SECURITY.md quotes', () => {
  const quoted = quotedDefaults(readFileSync(join(root, 'SECURITY.md'), 'utf8'));

  it('are found on the page (the reading below is not reading nothing)', () => {
    expect(quoted.length).toBeGreaterThan(25);
  });

  it('name variables of src/config/, each with a number for every name', () => {
    for (const { names, values, line } of quoted) {
      for (const name of names) expect(shape[name], `SECURITY.md:${line} quotes a default of ${name}, which src/config/ does not declare`).toBeDefined();
      expect(values.length, `SECURITY.md:${line}: ${names.join('/')} quoted as ${values.join('/')}`).toBe(names.length);
    }
  });

  it('are the defaults the configuration applies', () => {
    const wrong: string[] = [];
    for (const { names, values, line } of quoted) {
      names.forEach((name, i) => {
        const applied = shape[name]?.safeParse(undefined);
        const said = quotedValue(name, values[i]!);
        if (!applied?.success || applied.data !== said) wrong.push(`SECURITY.md:${line}: ${name} quoted as ${values[i]}, the default is ${String(applied?.data)}`);
      });
    }
    expect(wrong).toEqual([]);
  });
});

describe('reading quoted defaults', () => {
  it('reads single and joined names, thousands separators and seconds', () => {
    const text = [
      '| `MAX_TOKENS` (5000), before | `BACKEND_MAX_CONCURRENT`/`BACKEND_MAX_QUEUE` (256/10,000) |',
      'per `RATE_LIMIT_WINDOW_MS` (60 s), deep (`MAX_DEPTH`, 10) and `CACHE_URL` (one server)',
    ].join('\n');
    expect(quotedDefaults(text)).toEqual([
      { names: ['MAX_TOKENS'], values: ['5000'], line: 1 },
      { names: ['BACKEND_MAX_CONCURRENT', 'BACKEND_MAX_QUEUE'], values: ['256', '10,000'], line: 1 },
      { names: ['RATE_LIMIT_WINDOW_MS'], values: ['60 s'], line: 2 },
      { names: ['MAX_DEPTH'], values: ['10'], line: 2 },
    ]);
    expect(quotedValue('RATE_LIMIT_WINDOW_MS', '60 s')).toBe(60_000);
    expect(quotedValue('BACKEND_MAX_QUEUE', '10,000')).toBe(10_000);
    expect(quotedValue('SUBSCRIPTION_CONNECTIONS_PER_PARTNER', '2000 per')).toBe(2000);
  });
});
