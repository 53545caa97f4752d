import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest globalSetup: compiles src/ to dist/ once per run, before any worker starts, so tests of
 * the built entry (test/helpers/built-entry.ts) run the very JavaScript `npm start` runs. Once
 * per run because the build empties dist/ first: per test file, one file's build would pull the
 * entry from under another file's running process.
 */
export default function buildEntry(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
