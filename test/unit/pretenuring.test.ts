import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCommand } from '../helpers/start-command.js';

const child = fileURLToPath(new URL('../fixtures/mutation-promotion-child.ts', import.meta.url));
const PRETENURING_OFF = '--no-allocation-site-pretenuring';

/** Bytes promoted a request while the compiled path executed a mutation, 20 at a time, with these node options. */
function promotedPerRequest(nodeOptions: string[]): number {
  const out = execFileSync(process.execPath, [...nodeOptions, '--import', 'tsx', child], { encoding: 'utf8' });
  return (JSON.parse(out) as { promotedPerRequest: number }).promotedPerRequest;
}

describe('what a request leaves to the old generation, as the start command runs the product', () => {
  it('is nothing of an executed mutation; V8 allocation-site pretenuring would keep each request whole', () => {
    // Each request holds a context of a few KB across two turns. With pretenuring V8 soon sends
    // the copies of some object literal on this path straight to the old generation, and from
    // there every young object of the request is alive to young collections and is promoted.
    // docs/adr/no-pretenuring.md has the server's figures, reads after heavy reads among them.
    const { nodeOptions } = startCommand();
    expect(nodeOptions).toContain(PRETENURING_OFF);
    expect(promotedPerRequest(nodeOptions)).toBeLessThan(256);
    expect(promotedPerRequest(nodeOptions.filter((option) => option !== PRETENURING_OFF))).toBeGreaterThan(1024);
  }, 120_000);
});
