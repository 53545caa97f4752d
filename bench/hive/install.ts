import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../lib/measure.js';
import { REPO_ROOT } from '../lib/product.js';

/**
 * Hive Gateway and Mesh Compose, installed on first use into bench/hive/node_modules (git-ignored)
 * from this directory's package.json and lockfile: a tree far larger than the project's own, so
 * never a dependency of the project. `npm ci --ignore-scripts`: only the registry's packages, no install
 * script, so nothing is downloaded from anywhere else. Installed again when the lockfile changes.
 */

export const HIVE_DIR = join(REPO_ROOT, 'bench', 'hive');
const STAMP = join(HIVE_DIR, 'node_modules', '.installed-from-lockfile');

export interface HiveInstall {
  /** `hive-gateway`'s script. */
  gateway: string;
  /** `mesh-compose`'s script. */
  compose: string;
  versions: Record<string, string>;
  /** Seconds the install took in this run; 0 when it was there already. */
  installSeconds: number;
}

const version = (name: string) => (JSON.parse(readFileSync(join(HIVE_DIR, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

export function ensureHive(): HiveInstall {
  const lockHash = createHash('sha256').update(readFileSync(join(HIVE_DIR, 'package-lock.json'))).digest('hex');
  let installSeconds = 0;
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== lockHash) {
    log('hive: installing Hive Gateway and Mesh Compose into bench/hive/node_modules (npm ci, once)');
    const started = Date.now();
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: HIVE_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    } catch {
      throw new Error('hive: npm ci failed in bench/hive (see its output above); the hive part needs the npm registry once');
    }
    writeFileSync(STAMP, lockHash);
    installSeconds = Math.round((Date.now() - started) / 1000);
    log(`hive: installed in ${installSeconds} s`);
  }
  const bin = (name: string, script: string) => join(HIVE_DIR, 'node_modules', name, script);
  return {
    gateway: bin('@graphql-hive/gateway', 'dist/bin.js'),
    compose: bin('@graphql-mesh/compose-cli', (JSON.parse(readFileSync(join(HIVE_DIR, 'node_modules/@graphql-mesh/compose-cli/package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mesh-compose']!),
    versions: Object.fromEntries(['@graphql-hive/gateway', '@graphql-mesh/compose-cli', '@omnigraph/openapi', '@graphql-mesh/transport-rest'].map((name) => [name, version(name)])),
    installSeconds,
  };
}
