import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE_LIMIT, lineCount } from '../../scripts/line-limit.js';

/**
 * `npm test` runs `npm run lines`, which fails on a source file over the limit, as `npm run layers`
 * fails on an import against the layering: the command itself, on a repository made for the test.
 */

const root = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function repository(files: Record<string, number>): string {
  const dir = mkdtempSync(join(tmpdir(), 'line-limit-'));
  dirs.push(dir);
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};\n`).join(''));
  }
  return dir;
}

const lines = (dir?: string) => spawnSync('npm', ['run', '--silent', 'lines', '--', ...(dir ? [dir] : [])], { cwd: root, encoding: 'utf8' });

describe('npm run lines', () => {
  it('is part of npm test', async () => {
    const { scripts } = (await import('../../package.json', { with: { type: 'json' } })).default as { scripts: Record<string, string> };
    expect(scripts.test).toMatch(/npm run layers && npm run lines\b/);
  });

  it('passes on this repository', () => {
    const run = lines();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fails on a source file one line over the limit, naming it and its length', () => {
    const run = lines(repository({ 'src/fits.ts': LINE_LIMIT, 'src/deep/inside/long.ts': LINE_LIMIT + 1 }));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`src/deep/inside/long.ts: ${LINE_LIMIT + 1} lines, over the limit of ${LINE_LIMIT}`);
    expect(run.stderr).not.toContain('fits.ts');
  });

  it('leaves generated files alone', () => {
    const run = lines(repository({ 'src/schema/generated/resolvers-types.ts': LINE_LIMIT * 3, 'src/small.ts': 10 }));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('counts lines as wc -l does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });
});
