import { describe, expect, it } from 'vitest';
import { LineBatch } from '../../src/observability/line-batch.js';

describe('LineBatch', () => {
  it('holds a turn of lines for one write at the end of the turn', async () => {
    const writes: string[] = [];
    const batch = new LineBatch({ write: (text) => writes.push(text) });
    batch.push('a\n');
    batch.push('b\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\n']);
  });

  it('never holds more than a bounded text: a turn that writes more writes it as it goes', () => {
    const writes: string[] = [];
    const batch = new LineBatch({ write: (text) => writes.push(text) });
    const line = `${'x'.repeat(999)}\n`;
    for (let i = 0; i < 1000; i++) batch.push(line);
    // A megabyte of lines in one turn: written in pieces of at most 64 Ki characters and a line.
    expect(writes.length).toBeGreaterThanOrEqual(15);
    for (const text of writes) expect(text.length).toBeLessThan(64 * 1024 + line.length);
    batch.flush();
    expect(writes.join('')).toBe(line.repeat(1000));
  });

  it('writes what it holds before a line that is not a request line', () => {
    const writes: string[] = [];
    const batch = new LineBatch({ write: (text) => writes.push(text) });
    batch.push('request\n');
    batch.inOrder().write('warning\n');
    expect(writes).toEqual(['request\n', 'warning\n']);
  });
});
