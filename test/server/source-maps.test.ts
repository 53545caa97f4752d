import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Stack traces of the built product (dist/, built by test/helpers/build.global.ts) name the
 * TypeScript sources, with source maps read only when a stack is formatted
 * (src/observability/source-maps.ts), as `npm start` runs it: plain `node`, no flag.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The stack of the error `applyHeapGrowth(-1)` throws from the built module, in a fresh `node`. */
function builtStack(withSourceMaps: boolean): string {
  const script = [
    withSourceMaps ? `await import(${JSON.stringify(`${root}dist/src/observability/source-maps.js`)});` : '',
    `const { applyHeapGrowth } = await import(${JSON.stringify(`${root}dist/src/server/heap-growth.js`)});`,
    'try { applyHeapGrowth(-1); } catch (error) { process.stdout.write(error.stack); }',
  ].join('\n');
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
}

const throwLine = readFileSync(`${root}src/server/heap-growth.ts`, 'utf8').split('\n').findIndex((line) => line.includes('throw new RangeError')) + 1;

describe('source maps of the built product', () => {
  it('a stack through a built module names its TypeScript source and line', () => {
    expect(throwLine).toBeGreaterThan(0);
    const stack = builtStack(true);
    expect(stack).toContain('RangeError: applyHeapGrowth: need a whole number of percent >= 0, got -1');
    expect(stack).toMatch(new RegExp(`at applyHeapGrowth \\(\\S*/src/server/heap-growth\\.ts:${throwLine}:\\d+\\)`));
    expect(stack).not.toContain('dist/src/server/heap-growth.js');
  });

  it('without it, plain node names the compiled file (what the module changes)', () => {
    expect(builtStack(false)).toMatch(/at applyHeapGrowth \(\S*\/dist\/src\/server\/heap-growth\.js:\d+:\d+\)/);
  });

  it('both process entries install it before any other module loads', () => {
    for (const entry of ['dist/src/main.js', 'dist/src/emulator/main.js']) {
      const firstImport = /^import\s[^;]*;/m.exec(readFileSync(`${root}${entry}`, 'utf8'))?.[0];
      expect(firstImport, entry).toMatch(/^import\s+["'][./]+observability\/source-maps\.js["'];$/);
    }
  });
});
