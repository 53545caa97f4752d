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

  it('runs what sends an answer at the end of the turn, after the lines, in order', async () => {
    const events: string[] = [];
    const batch = new LineBatch({ write: (text) => events.push(`line ${text.trim()}`) });
    batch.afterLines(() => events.push('answer a'));
    batch.push('a\n');
    batch.afterLines(() => events.push('answer b'));
    batch.push('b\n');
    expect(events).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['line a\nb', 'answer a', 'answer b']);
  });

  it('keeps an answer for the end of the turn when its lines are written sooner', async () => {
    const events: string[] = [];
    const batch = new LineBatch({ write: () => events.push('lines') });
    batch.afterLines(() => events.push('answer'));
    // A line written at once (a warning) writes what is held, but the answer's own line may be
    // pushed later in the turn: the answer waits for the turn's end.
    batch.inOrder().write('warning\n');
    batch.push('its line\n');
    expect(events).toEqual(['lines']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['lines', 'lines', 'answer']);
  });

  it('sends the other answers when one send throws, and throws that error as its callback', async () => {
    const sent: string[] = [];
    const batch = new LineBatch({ write: () => undefined });
    batch.afterLines(() => {
      throw new Error('write failed');
    });
    batch.afterLines(() => sent.push('second'));
    const thrown = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    expect(await thrown).toMatchObject({ message: 'write failed' });
    expect(sent).toEqual(['second']);
  });
});
