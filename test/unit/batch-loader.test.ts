import { describe, expect, it } from 'vitest';
import { BatchLoader } from '../../src/partner/batch-loader.js';

/** A loader over a fake backend that records each batch it is asked for; ids above 100 fail. */
function recording(fetchAll?: (keys: readonly number[]) => Promise<(string | Error)[]>) {
  const batches: number[][] = [];
  const asked: number[] = [];
  const loader = new BatchLoader<number, string>(
    (keys) => {
      batches.push([...keys]);
      if (fetchAll) return fetchAll(keys);
      return Promise.resolve(keys.map((k) => (k > 100 ? new Error(`no ${k}`) : `campaign ${k}`)));
    },
    undefined,
    (key) => asked.push(key),
  );
  return { loader, batches, asked };
}

describe('BatchLoader.readAll', () => {
  it('reads the keys in one batch and gives each value, or its error, in its place', async () => {
    const { loader, batches, asked } = recording();
    const read = await loader.readAll([3, 101, 1]);
    expect(read[0]).toBe('campaign 3');
    expect(read[1]).toBeInstanceOf(Error);
    expect((read[1] as Error).message).toBe('no 101');
    expect(read[2]).toBe('campaign 1');
    expect(batches).toEqual([[3, 101, 1]]);
    expect(asked).toEqual([3, 101, 1]);
  });

  it('reads a key given twice once, and gives it in both places', async () => {
    const { loader, batches } = recording();
    expect(await loader.readAll([2, 2, 5])).toEqual(['campaign 2', 'campaign 2', 'campaign 5']);
    expect(batches).toEqual([[2, 5]]);
  });

  it('answers a load of a key it is reading from that read, without another call; an error rejects the load', async () => {
    let answer!: (values: (string | Error)[]) => void;
    const { loader, batches } = recording(() => new Promise((resolve) => (answer = resolve)));
    const all = loader.readAll([7, 102]);
    const seven = loader.load(7);
    const failing = loader.load(102);
    answer(['campaign 7', new Error('no 102')]);
    expect(await all).toEqual(['campaign 7', new Error('no 102')]);
    expect(await seven).toBe('campaign 7');
    await expect(failing).rejects.toThrow('no 102');
    expect(batches).toEqual([[7, 102]]);
  });

  it('takes keys this request has asked for already from the cache, and reads only the others', async () => {
    const { loader, batches } = recording();
    expect(await loader.load(4)).toBe('campaign 4');
    expect(await loader.readAll([4, 6])).toEqual(['campaign 4', 'campaign 6']);
    expect(await loader.readAll([6, 4])).toEqual(['campaign 6', 'campaign 4']);
    expect(batches).toEqual([[4], [6]]);
  });

  it('gives every key the error of a batch that fails as a whole', async () => {
    const { loader } = recording(() => Promise.reject(new Error('backend gone')));
    const read = await loader.readAll([1, 2]);
    expect(read.map((r) => (r instanceof Error ? r.message : r))).toEqual(['backend gone', 'backend gone']);
    await expect(loader.load(1)).rejects.toThrow('backend gone');
  });

  it('reads a key again once it is cleared', async () => {
    const { loader, batches } = recording();
    await loader.readAll([8]);
    loader.clear(8);
    expect(await loader.readAll([8])).toEqual(['campaign 8']);
    expect(await loader.load(8)).toBe('campaign 8');
    expect(batches).toEqual([[8], [8]]);
  });
});
