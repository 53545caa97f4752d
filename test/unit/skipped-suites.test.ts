import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skippedSummary } from '../helpers/skipped-suites.js';

/**
 * `npm test` ends by naming every file that skipped tests, with the Debian package that would run
 * them: vitest runs fixtures whose skip conditions ask `needs()` (and one that skips by hand), on a
 * PATH that holds node alone (so neither redis-server nor redis-cli is found), with the reporter
 * `npm test` uses. Node's own directory will not do: Debian's node is in /usr/bin, beside Debian's
 * redis-server.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('the skipped-suites summary', () => {
  it('names each file that skipped, what it needed and the package to install, last', () => {
    const nodeAlone = mkdtempSync(join(tmpdir(), 'node-alone-'));
    symlinkSync(process.execPath, join(nodeAlone, 'node'));
    const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/skips/vitest.config.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: nodeAlone, CI: '1' },
    });
    rmSync(nodeAlone, { recursive: true, force: true });
    const out = plain(run.stdout);
    expect(run.status, out + run.stderr).toBe(0);
    const summary = out.slice(out.lastIndexOf('Skipped:'));
    expect(summary.trim().split('\n')).toEqual([
      'Skipped: 3 tests in 2 files, which did not run here:',
      '  test/fixtures/skips/by-hand.fixture.ts  1 test skipped: no reason recorded: a skip without needs()',
      '  test/fixtures/skips/suite.fixture.ts    2 tests skipped: needs redis-cli (Debian: redis-tools), redis-server (Debian: redis-server)',
      'To run them: apt-get install redis-server redis-tools',
    ]);
  });

  it('says so when nothing was skipped', () => {
    expect(skippedSummary([])).toBe('Skipped: nothing. Every suite ran, with every system package it needs.');
  });
});
