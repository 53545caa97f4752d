import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One bench at a time on a machine: two runs pinned to the same cores would each measure the
 * other. A lock file holding the owner's pid; a lock whose owner is gone is taken over.
 */

const LOCK = join(tmpdir(), 'campaign-bff-bench.lock');

function ownerAlive(): number | null {
  try {
    const pid = Number(readFileSync(LOCK, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Takes the lock, waiting up to `waitMs` for another run to finish. Returns the release function. */
export async function acquireRunLock(waitMs: number, onWait: (pid: number) => void): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(LOCK, 'utf8').trim() === String(process.pid)) rmSync(LOCK);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = ownerAlive();
    if (owner === null) {
      rmSync(LOCK, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`another bench run (pid ${owner}) still holds ${LOCK} after ${Math.round(waitMs / 1000)} s; two runs would measure each other`);
    }
    if (!told) {
      onWait(owner);
      told = true;
    }
    await sleep(1000);
  }
}
