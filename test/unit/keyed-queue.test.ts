import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../src/partner/keyed-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedQueue', () => {
  it('runs tasks of one key one after another in arrival order, tasks of other keys at once', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run('a', task('a1')), queue.run('a', task('a2')), queue.run('b', task('b1')), queue.run('a', task('a3'))]);
    expect(results).toEqual(['a1', 'a2', 'b1', 'a3']);
    const a = log.filter((line) => line.startsWith('a'));
    expect(a).toEqual(['a1 start', 'a1 end', 'a2 start', 'a2 end', 'a3 start', 'a3 end']);
    // b1 did not wait for a1.
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(queue.size).toBe(0);
  });

  it('a failing task passes its error to its caller and does not hold up the next one', async () => {
    const queue = new KeyedQueue();
    const failing = queue.run('k', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 'after');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
    expect(queue.size).toBe(0);
  });
});
