import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../fixtures/logger-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bff-logger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the server logger', () => {
  it('has written every line by the time the call returns: a process killed right after loses none', () => {
    const file = join(dir, 'stdout.log');
    const fd = openSync(file, 'w');
    const run = spawnSync(process.execPath, ['--import', 'tsx', child, '2000'], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    closeSync(fd);
    expect(run.signal).toBe('SIGKILL');
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2000);
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(lines[0]).toMatchObject({ level: 30, service: 'campaign-bff', msg: 'line before the crash' });
  });
});
