import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextRelease, REMOVED_SETTINGS } from '../../src/config/removed.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { startCommand } from '../helpers/start-command.js';

/**
 * An upgrade to the release that removed a setting starts a deployment that still sets it, with
 * a warning; the release after refuses it. The built entry, run from a copy whose package.json
 * says which release it is (the process reads its version there, as in the image).
 */

const STARTS = { timeout: 90_000 };
const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const { nodeOptions, entry: main } = startCommand();

let copy: string;
let entry: BuiltEntry | undefined;
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'bff-removed-settings-'));
  cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterEach(async () => {
  await entry?.stop();
  entry = undefined;
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** Starts the copy as release `version` with `env`. */
function startAs(version: string, env: Record<string, string>): Promise<BuiltEntry> {
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...manifest, version }));
  return startBuiltEntry({ env, command: { file: process.execPath, args: [...nodeOptions, main], cwd: copy } });
}

for (const setting of REMOVED_SETTINGS) {
  describe(`${setting.name}, removed in ${setting.removedIn}`, STARTS, () => {
    const env = { [setting.name]: '30000' };

    it(`starts ${setting.removedIn}, which warns once naming it and the release that will refuse it, and serves`, async () => {
      entry = await startAs(setting.removedIn, env);
      expect(entry.logs().filter((line) => line.level === 40)).toEqual([
        expect.objectContaining({
          variable: setting.name,
          msg: `${setting.name} is ignored: it was removed in ${setting.removedIn} (${setting.instead}). Remove the variable: from ${nextRelease(setting.removedIn)} on it stops the start`,
        }),
      ]);
      expect((await fetch(entry.url.replace(/\/graphql$/, '/healthz'))).status).toBe(200);
    });

    it(`stops ${nextRelease(setting.removedIn)} in one line, exit 1, saying what to do`, async () => {
      const output = await startAs(nextRelease(setting.removedIn), env).then(
        async (started) => {
          entry = started;
          throw new Error(`started although it should not have: ${started.output()}`);
        },
        (error: Error) => error.message,
      );
      expect(output).toMatch(/exited \(1\) before printing its banner/);
      const written = output.slice(output.indexOf('its output:\n') + 'its output:\n'.length).trim();
      expect(written).toBe(`campaign-bff: invalid configuration: ${setting.name} was removed in ${setting.removedIn} and is no longer accepted: ${setting.instead}. Remove the variable`);
    });
  });
}
