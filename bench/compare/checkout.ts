import { execFileSync, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log } from '../lib/measure.js';
import { REPO_ROOT, type ProductTree } from '../lib/product.js';

/**
 * A commit of this repository built beside the working tree, in the system's temp directory: its
 * files as `git archive` gives them (no worktree is registered, so an interrupted run leaves
 * nothing in the repository), its dependencies installed with `npm ci` from its own lockfile into
 * a directory named by the lockfile's hash and linked in (a second run, or another commit with the
 * same lockfile, installs nothing), and its build made as `npm start` makes it, from its own build
 * script, when its entry is first started. Install scripts are not run: nothing but the registry's
 * packages is fetched.
 */

const HOME = join(tmpdir(), 'campaign-bff-bench-compare');
/** Written last into a directory that is complete, so a directory without it is made again. */
const COMPLETE = '.complete';

const git = (...args: string[]) => execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit a name (a hash, a tag, a branch) names, in full and short. */
export function resolveCommit(name: string): { full: string; short: string } {
  try {
    const full = git('rev-parse', '--verify', '--quiet', `${name}^{commit}`);
    return { full, short: git('rev-parse', '--short', full) };
  } catch {
    throw new Error(`--compare: ${JSON.stringify(name)} names no commit of this repository`);
  }
}

/** The files of `commit`, once per commit. */
function extract(commit: { full: string; short: string }): string {
  const dir = join(HOME, 'trees', commit.full);
  if (existsSync(join(dir, COMPLETE))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`--compare: extracting ${commit.short} into ${dir}`);
  execSync(`git -C '${REPO_ROOT}' archive --format=tar ${commit.full} | tar -x -C '${dir}'`, { stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(join(dir, COMPLETE), '');
  return dir;
}

/** `node_modules` for a lockfile, installed once per lockfile (and Node major version, for anything built per version). */
function dependencies(tree: string): string {
  const lock = readFileSync(join(tree, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).update(process.versions.node.split('.')[0]!).digest('hex').slice(0, 16);
  const dir = join(HOME, 'node_modules', hash);
  if (existsSync(join(dir, COMPLETE))) return join(dir, 'node_modules');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(tree, 'package.json'), join(dir, 'package.json'));
  copyFileSync(join(tree, 'package-lock.json'), join(dir, 'package-lock.json'));
  log(`--compare: npm ci for lockfile ${hash} (once; kept in ${dir})`);
  const started = Date.now();
  try {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    throw new Error(`--compare: npm ci failed in ${dir} (the commit's lockfile); see its output above`);
  }
  log(`--compare: dependencies installed in ${Math.round((Date.now() - started) / 1000)} s`);
  writeFileSync(join(dir, COMPLETE), '');
  return join(dir, 'node_modules');
}

/** The commit `name`, extracted and its dependencies in place, ready to build and start. */
export function checkoutCommit(name: string): ProductTree {
  const commit = resolveCommit(name);
  const dir = extract(commit);
  const modules = dependencies(dir);
  const link = join(dir, 'node_modules');
  const linked = (() => {
    try {
      return lstatSync(link).isSymbolicLink() ? readlinkSync(link) : null;
    } catch {
      return null;
    }
  })();
  if (linked !== modules) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(modules, link, 'dir');
  }
  return { root: `${dir}/`, label: commit.short };
}
