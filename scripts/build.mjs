// Transpiles src/ to plain JavaScript in dist/ (esbuild, well under a second) so the product runs
// on bare node: no loader thread, no on-the-fly transforms, less memory. Types are checked by
// `npm run typecheck`, not here.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildExplorer } from './build-explorer.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// `--outdir DIR` (relative to the root) builds elsewhere: a test that runs the built entry while
// other tests run dist/ must not empty dist/ under them. DIR must lie inside the root, where
// node_modules is found.
const outdirFlag = process.argv.indexOf('--outdir');
const out = resolve(root, outdirFlag === -1 ? 'dist' : (process.argv[outdirFlag + 1] ?? ''));
if (!out.startsWith(root.endsWith(sep) ? root : root + sep)) throw new Error(`--outdir must name a directory inside ${root}`);

const sources = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)));

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: sources,
  outdir: out,
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
// The schema files are read at run time, relative to the compiled modules.
cpSync(join(root, 'schema'), join(out, 'schema'), { recursive: true });
// The kit's trusted-documents manifest, which the entry serves on the embedded emulator (it is not
// in the image's build context, and production names its manifest with TRUSTED_DOCUMENTS).
const kitManifest = join('client', 'src', 'gql', 'persisted-documents.json');
if (existsSync(join(root, kitManifest))) {
  mkdirSync(join(out, 'client', 'src', 'gql'), { recursive: true });
  cpSync(join(root, kitManifest), join(out, kitManifest));
}
// The explorer a browser gets at /graphql in development, served from the BFF's own origin.
await buildExplorer(root, join(out, 'public', 'explorer'));
