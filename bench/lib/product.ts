import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The product as the bench reaches it: only through what a user of it has. Its built entries
 * (`dist/src/main.js`, the emulator's `dist/src/emulator/main.js`) run as child processes with the
 * node options of package.json's `start` script; its settings are environment variables, named and
 * defaulted by the configuration reference (docs/configuration.md); the rest is HTTP (the API, the
 * emulator's admin API, `/metrics`). Nothing under src/ is imported, so the bench measures any
 * checkout of the product, an older commit's included (`--compare`).
 */

/** The repository root: children run from there so `bench/...` resolves. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One checkout of the product: this working tree, or a commit built beside it. */
export interface ProductTree {
  /** Its root directory, with a trailing slash. */
  root: string;
  /** How the output names it: `working tree`, or the commit's short hash. */
  label: string;
}

export const WORKING_TREE: ProductTree = { root: REPO_ROOT, label: 'working tree' };

export type ProductEntry = 'bff' | 'emulator';

const ENTRIES: Record<ProductEntry, string> = { bff: 'dist/src/main.js', emulator: 'dist/src/emulator/main.js' };

/**
 * The node options the tree's `start` script runs its entry with (`exec node <options> <entry>`;
 * older trees wrote `node scripts/build.mjs && node <entry>`): the words between the last `node`
 * and the entry. None when the script names another entry.
 */
export function startOptions(tree: ProductTree): string[] {
  const manifest = JSON.parse(readFileSync(join(tree.root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const words = (manifest.scripts?.start ?? '').trim().split(/\s+/);
  const node = words.lastIndexOf('node');
  if (node === -1 || words.at(-1) !== ENTRIES.bff) return [];
  return words.slice(node + 1, -1);
}

const built = new Set<string>();

/** Builds the tree once per run (`scripts/build.mjs`, as `npm start` does), then the entry's path and node options. */
export function productCommand(tree: ProductTree, entry: ProductEntry): { script: string; nodeOptions: string[] } {
  if (!built.has(tree.root)) {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: tree.root, stdio: 'inherit' });
    built.add(tree.root);
  }
  const script = join(tree.root, ENTRIES[entry]);
  if (!existsSync(script)) throw new Error(`${tree.label}: the build made no ${ENTRIES[entry]}`);
  return { script, nodeOptions: entry === 'bff' ? startOptions(tree) : [] };
}

/** The settings the configuration reference lists: each variable with its default as written there. */
export function settingsReference(tree: ProductTree = WORKING_TREE): Map<string, string> {
  const file = join(tree.root, 'docs', 'configuration.md');
  const settings = new Map<string, string>();
  if (!existsSync(file)) return settings;
  for (const [, name, value] of readFileSync(file, 'utf8').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)) {
    settings.set(name!, value!.trim());
  }
  return settings;
}

/**
 * A numeric setting as a BFF started with `env` reads it: the value given, else the reference's
 * default (`` `300000` ``). Fails when the reference gives no number: the bench would guess.
 */
export function numericSetting(name: string, env: Record<string, string | undefined>, reference = settingsReference()): number {
  const given = env[name];
  if (given !== undefined && given !== '') return Number(given);
  const written = /^`(\d+)`$/.exec(reference.get(name) ?? '');
  if (!written) throw new Error(`docs/configuration.md gives no numeric default for ${name}; the bench needs it`);
  return Number(written[1]);
}

/**
 * How long the BFF takes a partner's token as accepted before it checks it again by reading the
 * category directory with it (SECURITY.md: "accepted for 60 s"). A refresh of the directory's copy
 * can fall in any measured window for that reason too; the bench sets those calls apart.
 * `test/unit/bench-boundaries.test.ts` holds it to the product's own value.
 */
export const TOKEN_RECHECK_MS = 60_000;

