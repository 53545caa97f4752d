import { spawn, spawnSync } from 'node:child_process';
import { constants, createReadStream, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/log-capture.js';
import { answerSender, createLogger, requestLineWriter, type RequestLine } from '../../src/observability/logger.js';

const child = fileURLToPath(new URL('../fixtures/logger-child.ts', import.meta.url));
const fifoChild = fileURLToPath(new URL('../fixtures/logger-fifo-child.ts', import.meta.url));
const requestLinesChild = fileURLToPath(new URL('../fixtures/request-lines-child.ts', import.meta.url));
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

  it('writes every line whole and in order into a pipe that is full, however much write(2) takes at a time', async () => {
    const fifo = join(dir, 'slow-reader.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Held open for reading and writing, so the child's non-blocking open finds a reader at once.
    const fd = openSync(fifo, constants.O_RDWR);
    const count = 300;
    const writer = spawn(process.execPath, ['--import', 'tsx', fifoChild, fifo, String(count)], { stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => writer.once('exit', resolve));
    let stderr = '';
    writer.stderr.on('data', (chunk) => (stderr += chunk));
    // Nothing is read for a while: the pipe (64 KB) fills long before the child's 1.8 MB are out,
    // and lines longer than PIPE_BUF (4 KB) may be taken in part.
    await new Promise((resolve) => setTimeout(resolve, 300));
    let text = '';
    const reader = createReadStream('', { fd, encoding: 'utf8', highWaterMark: 16 * 1024 });
    await new Promise<void>((resolve, reject) => {
      let lineCount = 0;
      reader.on('data', (chunk: string | Buffer) => {
        const piece = chunk.toString();
        text += piece;
        lineCount += piece.split('\n').length - 1;
        if (lineCount >= count) resolve();
      });
      reader.on('error', reject);
      // A line lost never comes: what has come a while after the writer is gone is all there is.
      void exited.then(() => setTimeout(resolve, 2000));
    });
    reader.destroy();
    const code = await exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = text.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(new Set(lines.map((line) => line.padding))).toEqual(new Set(['é'.repeat(3000)]));
  }, 30_000);
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

  it('is the bytes pino itself writes for the same fields, apart from the moment', async () => {
    const written = captureLogs();
    const byPino = captureLogs();
    const write = requestLineWriter(written.logger);
    // Twice: values written before are remembered in their JSON form.
    for (const line of [...cases, ...cases]) {
      write(line);
      byPino.logger.info(line, 'graphql request');
    }
    // Request lines go out at the end of the turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.lines.map(withoutTime)).toEqual(byPino.lines.map(withoutTime));
    expect(written.entries[0]).toMatchObject({ level: 30, service: 'campaign-bff', msg: 'graphql request', requestId: cases[0]!.requestId, path: 'remembered' });
    expect(written.entries[0]).not.toHaveProperty('errorCodes');
    expect(written.entries[1]).not.toHaveProperty('operationType');
    expect(written.entries[2]!.operation).toBe(cases[2]!.operation);
    expect(written.entries[2]!.durationMs).toBeNull();
  });

  it('goes out with the other request lines of its turn, in one write, before any line written after it', async () => {
    const writes: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (writes.push(chunk.toString()), done()) });
    const logger = createLogger('info', sink);
    const write = requestLineWriter(logger);
    write(cases[0]!);
    write(cases[1]!);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').filter(Boolean).map((line) => JSON.parse(line).requestId)).toEqual([cases[0]!.requestId, cases[1]!.requestId]);
    // A line of another kind in the same turn: the request lines held before it go first.
    write(cases[2]!);
    logger.warn('after the request');
    expect(writes.slice(1).map((text) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line).msg))).toEqual([['graphql request'], ['after the request']]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(3);
  });

  it('is written when the process exits in the turn that held it; only a kill outright loses a turn of them', () => {
    for (const how of ['exit', 'kill'] as const) {
      const file = join(dir, `request-lines-${how}.log`);
      const fd = openSync(file, 'w');
      const run = spawnSync(process.execPath, ['--import', 'tsx', requestLinesChild, how, '500'], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      closeSync(fd);
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      if (how === 'exit') {
        expect(run.status).toBe(0);
        expect(lines.map((line) => JSON.parse(line).requestId)).toEqual(Array.from({ length: 500 }, (_, i) => `r-${i}`));
      } else {
        expect(run.signal).toBe('SIGKILL');
        expect(lines.length).toBeLessThan(500);
      }
    }
  });

  it('goes out before the answer it is the line of: the answer is sent at the turn’s end, after the lines', async () => {
    const events: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (events.push(`line ${JSON.parse(chunk.toString()).requestId}`), done()) });
    const logger = createLogger('info', sink);
    const send = answerSender(logger);
    const write = requestLineWriter(logger);
    send(() => events.push('answer'));
    write(cases[1]!);
    expect(events).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['line r-1', 'answer']);

    // Where no request line is written, nothing waits.
    const quiet = answerSender(createLogger('warn', sink));
    quiet(() => events.push('answer at once'));
    expect(events.at(-1)).toBe('answer at once');
  });

  it('follows the logger: nothing below info, and through pino with the trace ids where the logger has a mixin', async () => {
    const quiet = captureLogs('warn');
    requestLineWriter(quiet.logger)(cases[0]!);
    await new Promise((resolve) => setImmediate(resolve));
    expect(quiet.lines).toEqual([]);

    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const traced = createLogger('info', sink, { mixin: () => ({ trace_id: 'abc', span_id: 'def' }) });
    requestLineWriter(traced)(cases[1]!);
    expect(JSON.parse(lines[0]!)).toMatchObject({ trace_id: 'abc', span_id: 'def', requestId: 'r-1', errorCodes: ['BAD_USER_INPUT', 'UNAUTHENTICATED'], msg: 'graphql request' });
  });
});
