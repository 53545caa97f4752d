import { describe, expect, it } from 'vitest';
import { RequestLog } from '../../src/emulator/request-log.js';

describe('emulator request log', () => {
  it('keeps the last CAPACITY calls, oldest first, and only string traceparents', () => {
    const log = new RequestLog();
    const total = RequestLog.CAPACITY + 5;
    for (let i = 0; i < total; i++) log.record(`op${i}`, i % 2 ? `tp${i}` : undefined, []);
    const entries = log.list();
    expect(entries).toHaveLength(RequestLog.CAPACITY);
    expect(entries[0]).toMatchObject({ operation: 'op5', traceparent: 'tp5' });
    expect(entries.at(-1)).toMatchObject({ operation: `op${total - 1}`, traceparent: null });
    log.record('repeated', ['a', 'b'], []);
    expect(log.list().at(-1)).toMatchObject({ operation: 'repeated', traceparent: null });
    log.clear();
    expect(log.list()).toEqual([]);
  });

  it('keeps the names of the headers, lower case, at most 32 of at most 64 characters', () => {
    const log = new RequestLog();
    log.record('op', undefined, ['Host', 'x', 'TraceParent', 'y', 'Authorization', 'z']);
    log.record('none', undefined, []);
    const many = Array.from({ length: 40 }, (_, i) => [`X-${i}-${'n'.repeat(100)}`, 'v']).flat();
    log.record('many', undefined, many);
    const [op, none, manyEntry] = log.list();
    expect(op!.headers).toEqual(['host', 'traceparent', 'authorization']);
    expect(none!.headers).toEqual([]);
    expect(manyEntry!.headers).toHaveLength(32);
    expect(manyEntry!.headers.every((name) => name.length === 64 && name.startsWith('x-'))).toBe(true);
  });
});
