import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The emulator run alone (`npm run emulator`; the development overlay's and the Compose file's
 * emulator, from the image): it listens where EMULATOR_HOST and EMULATOR_PORT, declared with the
 * BFF's settings, say, and refuses a bad value as the BFF does.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = 'dist/src/emulator/main.js';
let child: ReturnType<typeof spawn> | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

describe('the emulator run alone', () => {
  it('listens on EMULATOR_HOST and EMULATOR_PORT', async () => {
    child = spawn(process.execPath, [ENTRY], { cwd: root, env: { ...process.env, EMULATOR_HOST: '127.0.0.2', EMULATOR_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`exited (${code}): ${out}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
  });

  it('refuses a bad value in one line naming the variable, exit 1', () => {
    const run = spawnSync(process.execPath, [ENTRY], { cwd: root, env: { ...process.env, EMULATOR_PORT: '0x10' }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('campaign-api-emulator: invalid configuration: EMULATOR_PORT="0x10": must be a whole number from 0 to 65535');
  });
});
