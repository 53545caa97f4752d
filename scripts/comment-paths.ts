// Part of `npm run layers`: every file a comment of src/ points at exists, so a module that moves
// or goes takes its pointers with it. A pointer is a `.ts` file, or any path with a folder in it:
//
// - from the repository's root (`src/graphql/pagination.ts`, `docs/configuration.md`);
// - from src/ (`graphql/pagination.ts`, as the docs name modules);
// - a bare `.ts` name from the commenting file's own folder (`envelope.ts` in src/campaign-api/),
//   or the root (`codegen.ts`): a module of another folder is named with its folder.
//
// `tsx scripts/comment-paths.ts [folder]` checks src/ of the repository (or of the folder given)
// and exits 1 on a pointer to nothing; test/unit/comment-paths.test.ts shows it refusing each kind.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface StalePointer {
  file: string;
  line: number;
  path: string;
}

/** A file name with its extension, alone or after folders: `pagination.ts`, `docs/adr/keyed-hashes.md`. */
const POINTER = /(?<![\w/.@-])((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|mjs|cjs|md|graphql|json|ya?ml))(?![\w/-])/g;

/** Every comment of a source file, with the line it starts on. */
function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const seen = new Set<number>();
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    for (const range of [...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []), ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? [])]) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      found.push({ line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return found;
}

/** The pointers of one file's comments to nothing; `file` is its path from `root`, `/`-separated. */
export function stalePointers(root: string, file: string, text: string): StalePointer[] {
  const stale: StalePointer[] = [];
  for (const comment of commentsOf(file, text)) {
    for (const match of comment.text.matchAll(POINTER)) {
      const path = match[1]!;
      const bare = !path.includes('/');
      if (bare && !path.endsWith('.ts')) continue;
      const places = bare ? [posix.join(posix.dirname(file), path), path] : [path, posix.join('src', path)];
      if (places.some((place) => existsSync(join(root, place)))) continue;
      const line = comment.line + comment.text.slice(0, match.index).split('\n').length - 1;
      stale.push({ file, line, path });
    }
  }
  return stale;
}

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

/** Every pointer to nothing in the comments of `root`'s src/. */
export function checkComments(root: string): StalePointer[] {
  return sources(join(root, 'src')).flatMap((path) => stalePointers(root, relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8')));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  const stale = checkComments(root);
  for (const s of stale) process.stderr.write(`${s.file}:${s.line} [comment-paths] ${s.path}: no such file; name the file where it is now (a module of another folder with its folder)\n`);
  if (stale.length) {
    process.stderr.write(`\nx ${stale.length} comment${stale.length === 1 ? '' : 's'} pointing at nothing (scripts/comment-paths.ts)\n`);
    process.exit(1);
  }
}
