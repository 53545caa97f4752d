import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../fixtures/request-shapes-child.ts', import.meta.url));

/** Whether code optimised on a server's responses is still valid after the process idled through full collections. */
function afterIdle(mode: 'bff' | 'bare'): { optimizedBefore: boolean; optimizedAfter: boolean } {
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', child, mode], { encoding: 'utf8' });
  return JSON.parse(out) as { optimizedBefore: boolean; optimizedAfter: boolean };
}

describe('hidden classes of request objects across idle time (src/server/request-shapes.ts)', () => {
  it('on a bare node:http server, code optimised for its responses is thrown away once the process idles', () => {
    // The premise: V8 lets the responses' hidden class go when no response is left.
    expect(afterIdle('bare')).toEqual({ optimizedBefore: true, optimizedAfter: false });
  }, 30_000);

  it("on the BFF's server it stays valid: the last request's objects keep their hidden classes", () => {
    expect(afterIdle('bff')).toEqual({ optimizedBefore: true, optimizedAfter: true });
  }, 30_000);
});
