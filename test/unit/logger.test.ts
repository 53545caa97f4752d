import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';

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

describe('the time of a line', () => {
  it('is the ISO time of the moment it was written, to the millisecond', async () => {
    const logs = captureLogs();
    const start = Date.now();
    logs.logger.info('first');
    logs.logger.info('same moment');
    await new Promise((resolve) => setTimeout(resolve, 10));
    logs.logger.info('later');
    const end = Date.now();
    const times = logs.entries.map((entry) => entry.time as string);
    for (const time of times) {
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(time)).toBeGreaterThanOrEqual(start);
      expect(Date.parse(time)).toBeLessThanOrEqual(end);
    }
    expect(Date.parse(times[2]!) - Date.parse(times[0]!)).toBeGreaterThanOrEqual(5);
  });
});
