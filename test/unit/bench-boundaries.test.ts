import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { numericSetting, settingsReference, startOptions, TOKEN_RECHECK_MS, WORKING_TREE } from '../../bench/lib/product.js';
import { TOKEN_ACCEPTED_FOR_MS } from '../../src/cache/token-verdicts.js';
import { loadConfig } from '../../src/config.js';
import { startCommand } from '../helpers/start-command.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every source file of the bench (its installed tools' node_modules and its results left out). */
function benchSources(dir = join(root, 'bench')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : benchSources(join(dir, entry.name));
    return entry.isFile() && /\.(ts|mjs)$/.test(entry.name) ? [relative(root, join(dir, entry.name))] : [];
  });
}

/**
 * The one file that measures a module rather than the product: the REST client alone against the
 * emulator, which no entry of the product reaches on its own.
 */
const MEASURES_A_MODULE: Record<string, string[]> = { 'bench/client-get.ts': ['src/campaign-api/http-client.js'] };

describe('the bench reaches the product only through its public entry points', () => {
  it('imports nothing from src/ (the built entries run as child processes, settings come from the configuration reference)', () => {
    const offending: string[] = [];
    for (const file of benchSources()) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
        const target = relative(root, join(root, file, '..', specifier!));
        if (!target.startsWith('src/')) continue;
        if (!MEASURES_A_MODULE[file]?.includes(target)) offending.push(`${file} imports ${target}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('keeps every file of the bench within the 400-line rule', () => {
    const long = benchSources()
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });

  it("reads the settings it needs as the product defaults them, from the configuration reference", () => {
    const config = loadConfig({ NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:9' });
    const reference = settingsReference();
    expect(numericSetting('BACKEND_CONNECTIONS', {}, reference)).toBe(config.client.connections);
    expect(numericSetting('CATEGORY_TTL_MS', {}, reference)).toBe(config.categoryTtlMs);
    expect(numericSetting('SUBSCRIPTION_POLL_INTERVAL_MS', {}, reference)).toBe(config.live.pollIntervalMs);
    expect(numericSetting('CATEGORY_TTL_MS', { CATEGORY_TTL_MS: '1234' }, reference)).toBe(1234);
    expect(() => numericSetting('NO_SUCH_SETTING', {}, reference)).toThrow(/NO_SUCH_SETTING/);
  });

  it("sets apart the directory's token checks as often as the product makes them", () => {
    expect(TOKEN_RECHECK_MS).toBe(TOKEN_ACCEPTED_FOR_MS);
  });

  it("starts the BFF with the node options of package.json's start script", () => {
    expect(startOptions(WORKING_TREE)).toEqual(startCommand().nodeOptions);
  });

  it('reads `exec node <options> dist/src/main.js`, and an older tree that built first and gave none', () => {
    const tree = (start: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start } }));
      return { root: `${dir}/`, label: 'test' };
    };
    expect(startOptions(tree('exec node --max-semi-space-size=8 dist/src/main.js'))).toEqual(['--max-semi-space-size=8']);
    expect(startOptions(tree('node scripts/build.mjs && node dist/src/main.js'))).toEqual([]);
    expect(startOptions(tree('node other.js'))).toEqual([]);
  });
});
