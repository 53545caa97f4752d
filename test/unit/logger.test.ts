import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';
import { createLogger, requestLineWriter, type RequestLine } from '../../src/observability/logger.js';

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

describe('the request line', () => {
  const cases: RequestLine[] = [
    { requestId: 'a7c1e2f0-1234-4567-89ab-cdef01234567', operation: 'Categories', operationType: 'query', outcome: 'ok', errorCodes: undefined, durationMs: 0.1, backendCalls: 0, path: 'remembered' },
    { requestId: 'r-1', operation: 'anonymous', operationType: undefined, outcome: 'BAD_USER_INPUT', errorCodes: ['BAD_USER_INPUT', 'UNAUTHENTICATED'], durationMs: 12.3, backendCalls: 2, path: 'apollo' },
    { requestId: 'r.2', operation: 'Name "quoted" \\ \n \u2028 \ud800 Категории', operationType: 'mutation', outcome: 'partial', errorCodes: ['BACKEND_UNAVAILABLE'], durationMs: Number.NaN, backendCalls: 51, path: 'compiled' },
    { requestId: 'an id "to escape" ü', operation: 'x'.repeat(80), operationType: 'query', outcome: 'ok', errorCodes: undefined, durationMs: 1, backendCalls: 0, path: 'apollo' },
  ];
  const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"');

  it('is the bytes pino itself writes for the same fields, apart from the moment', () => {
    const written = captureLogs();
    const byPino = captureLogs();
    const write = requestLineWriter(written.logger);
    // Twice: values written before are remembered in their JSON form.
    for (const line of [...cases, ...cases]) {
      write(line);
      byPino.logger.info(line, 'graphql request');
    }
    expect(written.lines.map(withoutTime)).toEqual(byPino.lines.map(withoutTime));
    expect(written.entries[0]).toMatchObject({ level: 30, service: 'campaign-bff', msg: 'graphql request', requestId: cases[0]!.requestId, path: 'remembered' });
    expect(written.entries[0]).not.toHaveProperty('errorCodes');
    expect(written.entries[1]).not.toHaveProperty('operationType');
    expect(written.entries[2]!.operation).toBe(cases[2]!.operation);
    expect(written.entries[2]!.durationMs).toBeNull();
  });

  it('follows the logger: nothing below info, and through pino with the trace ids where the logger has a mixin', () => {
    const quiet = captureLogs('warn');
    requestLineWriter(quiet.logger)(cases[0]!);
    expect(quiet.lines).toEqual([]);

    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const traced = createLogger('info', sink, { mixin: () => ({ trace_id: 'abc', span_id: 'def' }) });
    requestLineWriter(traced)(cases[1]!);
    expect(JSON.parse(lines[0]!)).toMatchObject({ trace_id: 'abc', span_id: 'def', requestId: 'r-1', errorCodes: ['BAD_USER_INPUT', 'UNAUTHENTICATED'], msg: 'graphql request' });
  });
});
