// Bundles the explorer (explorer/main.ts: GraphiQL, React, the editor's workers, styles and fonts)
// into static files the BFF serves from its own origin in development. Bundling it takes several
// seconds, far longer than the rest of the build, so the result is kept under
// node_modules/.cache, keyed by everything it is made from (the explorer's sources, this script,
// the lockfile), and copied into the build when nothing changed.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

function stampOf(root) {
  const hash = createHash('sha256');
  const explorer = join(root, 'explorer');
  for (const name of readdirSync(explorer).sort()) hash.update(name).update(readFileSync(join(explorer, name)));
  hash.update(readFileSync(new URL(import.meta.url)));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

async function bundle(root, dir) {
  const common = {
    absWorkingDir: root,
    bundle: true,
    minify: true,
    platform: 'browser',
    target: 'es2022',
    // React's and GraphiQL's production builds: no development-only checks and messages.
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    outdir: dir,
  };
  // The editor's workers: plain scripts (a worker of another format needs more of the browser).
  const workers = await build({
    ...common,
    entryPoints: {
      editor: 'monaco-editor/esm/vs/editor/editor.worker.js',
      json: 'monaco-editor/esm/vs/language/json/json.worker.js',
      graphql: 'monaco-graphql/esm/graphql.worker.js',
    },
    format: 'iife',
    entryNames: '[name].worker-[hash]',
  });
  const names = Object.fromEntries(Object.keys(workers.metafile.outputs).map((file) => [basename(file).split('.')[0], basename(file)]));
  const page = await build({
    ...common,
    // GraphiQL, and Apollo Sandbox's loader, which turns to GraphiQL when Sandbox cannot load.
    entryPoints: { explorer: 'explorer/main.ts', sandbox: 'explorer/sandbox.ts' },
    format: 'esm',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file' },
    define: { ...common.define, EXPLORER_WORKERS: JSON.stringify(names) },
  });
  const outputs = Object.keys(page.metafile.outputs).map((file) => basename(file));
  const named = (prefix, suffix) => outputs.find((f) => f.startsWith(`${prefix}-`) && f.endsWith(suffix));
  const manifest = { script: named('explorer', '.js'), style: named('explorer', '.css'), sandbox: named('sandbox', '.js') };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
}

/** Puts the explorer's files in `target` (emptied first), bundling them only when their sources changed. */
export async function buildExplorer(root, target) {
  const cache = join(root, 'node_modules', '.cache', 'campaign-bff-explorer');
  const ready = join(cache, stampOf(root));
  if (!existsSync(join(ready, 'manifest.json'))) {
    // Built aside and renamed into place: a build running at the same time never sees half of it.
    const building = `${ready}.${process.pid}.tmp`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    await bundle(root, building);
    for (const old of existsSync(cache) ? readdirSync(cache) : []) if (!old.endsWith('.tmp')) rmSync(join(cache, old), { recursive: true, force: true });
    try {
      renameSync(building, ready);
    } catch (error) {
      // Another build put the same files there first.
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(join(ready, 'manifest.json'))) throw error;
    }
  }
  rmSync(target, { recursive: true, force: true });
  cpSync(ready, target, { recursive: true });
}
