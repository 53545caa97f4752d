import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The rules of .dependency-cruiser.cjs that place folders (the domains among themselves,
 * tracing, cache/, the configuration, partner/ and schema/), run as `npm run layers` runs them, on
 * a tree of files that each import one module: every import a rule refuses is reported under that
 * rule, and the imports the layers allow pass.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Each `from` file imports its `to` file, which imports nothing; the violations dependency-cruiser finds. */
function cruise(imports: readonly (readonly [from: string, to: string])[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  dirs.push(dir);
  const write = (file: string, text: string) => {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [, to] of imports) write(to, 'export const value = 1;\n');
  imports.forEach(([from, to], i) => {
    const specifier = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
    write(from, `import { value } from '${specifier.startsWith('.') ? specifier : `./${specifier}`}';\nexport const use${i} = value;\n`);
  });
  const run = spawnSync(join(root, 'node_modules/.bin/depcruise'), ['src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(result.summary.totalCruised).toBeGreaterThanOrEqual(imports.length);
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe('the layering of folders (.dependency-cruiser.cjs)', () => {
  it('refuses a domain importing a domain DOMAIN_IMPORTS does not give it', () => {
    expect(
      cruise([
        ['src/campaigns/a.ts', 'src/feed/x.ts'],
        ['src/categories/a.ts', 'src/campaigns/x.ts'],
        ['src/feed/a.ts', 'src/apps/x.ts'],
        ['src/subscriptions/a.ts', 'src/feed/x.ts'],
        ['src/apps/a.ts', 'src/subscriptions/x.ts'],
      ]),
    ).toEqual([
      'domain-apps: src/apps/a.ts → src/subscriptions/x.ts',
      'domain-campaigns: src/campaigns/a.ts → src/feed/x.ts',
      'domain-categories: src/categories/a.ts → src/campaigns/x.ts',
      'domain-feed: src/feed/a.ts → src/apps/x.ts',
      'domain-subscriptions: src/subscriptions/a.ts → src/feed/x.ts',
    ]);
  });

  it('refuses tracing, cache/ and the configuration out of their layers', () => {
    expect(
      cruise([
        ['src/tracing/a.ts', 'src/observability/x.ts'],
        ['src/cache/a.ts', 'src/http/x.ts'],
        ['src/http/a.ts', 'src/config.ts'],
        ['src/config/a.ts', 'src/schema/x.ts'],
        ['src/config-names.ts', 'src/feed/x.ts'],
      ]),
    ).toEqual([
      'cache-below-the-engine: src/cache/a.ts → src/http/x.ts',
      'config-above-infrastructure: src/http/a.ts → src/config.ts',
      'config-below-its-readers: src/config-names.ts → src/feed/x.ts',
      'config-below-its-readers: src/config/a.ts → src/schema/x.ts',
      'tracing-below-the-client: src/tracing/a.ts → src/observability/x.ts',
    ]);
  });

  it('refuses partner/ and schema/ reaching up, and the layers below reaching them', () => {
    expect(
      cruise([
        ['src/schema/a.ts', 'src/campaigns/x.ts'],
        ['src/partner/a.ts', 'src/feed/x.ts'],
        ['src/partner/b.ts', 'src/schema/x.ts'],
        ['src/pipeline/a.ts', 'src/partner/x.ts'],
        ['src/http/a.ts', 'src/partner/x.ts'],
      ]),
    ).toEqual([
      'engine-knows-no-domain: src/pipeline/a.ts → src/partner/x.ts',
      'infrastructure-below-graphql: src/http/a.ts → src/partner/x.ts',
      'partner-below-the-schema: src/partner/b.ts → src/schema/x.ts',
      'schema-below-the-domains: src/partner/a.ts → src/feed/x.ts',
      'schema-below-the-domains: src/schema/a.ts → src/campaigns/x.ts',
    ]);
  });

  it('lets pass what the layers allow', () => {
    expect(
      cruise([
        ['src/feed/a.ts', 'src/campaigns/x.ts'],
        ['src/subscriptions/a.ts', 'src/campaigns/x.ts'],
        ['src/apps/a.ts', 'src/categories/x.ts'],
        ['src/apps/b.ts', 'src/feed/x.ts'],
        ['src/campaigns/a.ts', 'src/schema/x.ts'],
        ['src/schema/a.ts', 'src/partner/x.ts'],
        ['src/partner/a.ts', 'src/graphql/x.ts'],
        ['src/config/a.ts', 'src/cache/x.ts'],
        ['src/config.ts', 'src/tracing/x.ts'],
        ['src/cache/a.ts', 'src/secrets/x.ts'],
        ['src/tracing/a.ts', 'src/text/x.ts'],
        ['src/server/a.ts', 'src/config-names.ts'],
      ]),
    ).toEqual([]);
  });
});
