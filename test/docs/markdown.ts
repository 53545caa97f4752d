import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The documentation a reader is sent to: the top-level guides, bench/README.md, and all of docs/. */
export function documentationFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md', 'compat/README.md', 'bench/README.md', 'client/README.md', 'deploy/prometheus/README.md', 'src/emulator/README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files.map((file) => relative(root, join(root, file)));
}

export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** What follows the language on the fence line (`no-run: why`). */
  info: string;
  code: string;
}

/** Fenced code blocks at the start of a line (``` or ~~~ with a language or none). */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ file, line: start + 1, lang: open[1]!, info: open[2]!.trim(), code: body.join('\n') });
  }
  return blocks;
}

/** The reason a block is not run, from `no-run: <reason>` after its language; undefined when it runs. */
export function noRunReason(block: CodeBlock): string | undefined {
  const match = /^no-run:\s*(.*)$/.exec(block.info);
  return match ? match[1]!.trim() : undefined;
}

/** Markdown text with fenced blocks blanked out (links inside code are not links). */
export function proseOf(file: string): string {
  let inside = false;
  return readFileSync(join(root, file), 'utf8')
    .split('\n')
    .map((line) => {
      if (/^```/.test(line)) {
        inside = !inside;
        return '';
      }
      return inside ? '' : line;
    })
    .join('\n');
}
