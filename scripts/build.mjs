// Transpiles src/ to plain JavaScript in dist/ (esbuild, well under a second) so the product runs
// on bare node: no loader thread, no on-the-fly transforms, less memory. Types are checked by
// `npm run typecheck`, not here.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist');

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
