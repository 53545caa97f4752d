// `npm run lines` (part of `npm test`): no source file over LINE_LIMIT lines. A file past it owns
// more than one thing; split it by what each part owns (CONTRIBUTING.md). Generated files are
// written by their generators and are not split by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LINE_LIMIT = 400;
/** The folders the rule covers, relative to the repository's root. */
export const FOLDERS = ['src'];
/** Written by a generator (`npm run codegen`), never by hand. */
const GENERATED = /(^|\/)generated\//;
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Lines as `wc -l` and an editor count them: a final newline ends the last line, it does not start another. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

export interface LongFile {
  path: string;
  lines: number;
}

/** The source files under `folders` of `root` that are over the limit, longest first. */
export function longFiles(root: string, folders: readonly string[] = FOLDERS, limit = LINE_LIMIT): LongFile[] {
  const found: LongFile[] = [];
  for (const folder of folders) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !SOURCE.test(entry.name)) continue;
      const path = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
      if (GENERATED.test(path)) continue;
      const lines = lineCount(readFileSync(join(root, path), 'utf8'));
      if (lines > limit) found.push({ path, lines });
    }
  }
  return found.sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  const long = longFiles(root);
  for (const file of long) process.stderr.write(`${file.path}: ${file.lines} lines, over the limit of ${LINE_LIMIT}: split it by what each part owns\n`);
  if (long.length) process.exit(1);
  process.stdout.write(`no source file over ${LINE_LIMIT} lines in ${FOLDERS.join(', ')}/\n`);
}
