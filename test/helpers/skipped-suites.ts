import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { debianPackageOf, type SkipMeta } from './needs.js';

/**
 * A vitest reporter that ends the run by naming every test file that skipped something, and why:
 * the programs it needed (recorded by `needs()`, test/helpers/needs.ts) with the Debian package
 * that brings each, or that no reason was recorded. A run that skipped nothing says so.
 */

export interface SkippedFile {
  /** The test file, relative to the root. */
  file: string;
  /** Skipped tests, over every project that ran the file. */
  skipped: number;
  /** What `needs()` found missing in the file; empty: skipped for no recorded reason. */
  missing: string[];
}

export function skippedSummary(files: readonly SkippedFile[]): string {
  if (files.length === 0) return 'Skipped: nothing. Every suite ran, with every system package it needs.';
  const width = Math.max(...files.map((f) => f.file.length));
  const lines = files.map(({ file, skipped, missing }) => {
    const what = skipped > 0 ? `${skipped} ${skipped === 1 ? 'test' : 'tests'} skipped` : 'cases left out';
    const why = missing.length > 0 ? `needs ${missing.map((program) => `${program} (Debian: ${debianPackageOf(program)})`).join(', ')}` : 'no reason recorded: a skip without needs()';
    return `  ${file.padEnd(width)}  ${what}: ${why}`;
  });
  const packages = [...new Set(files.flatMap((f) => f.missing.map(debianPackageOf)))].sort();
  const total = files.reduce((sum, f) => sum + f.skipped, 0);
  return [
    `Skipped: ${total} ${total === 1 ? 'test' : 'tests'} in ${files.length} ${files.length === 1 ? 'file' : 'files'}, which did not run here:`,
    ...lines,
    ...(packages.length > 0 ? [`To run them: apt-get install ${packages.join(' ')}`] : []),
  ].join('\n');
}

/** The files of a run that skipped tests or recorded missing programs, each once over the projects. */
export function skippedFiles(modules: ReadonlyArray<TestModule>, root: string): SkippedFile[] {
  const byFile = new Map<string, SkippedFile>();
  for (const module of modules) {
    const missing = (module.meta() as SkipMeta).missingPrograms ?? [];
    const skipped = [...module.children.allTests('skipped')].length;
    if (skipped === 0 && missing.length === 0) continue;
    const file = relative(root, module.moduleId);
    const entry = byFile.get(file) ?? { file, skipped: 0, missing: [] };
    entry.skipped += skipped;
    entry.missing = [...new Set([...entry.missing, ...missing])].sort();
    byFile.set(file, entry);
  }
  return [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file));
}

export default class SkippedSuitesReporter implements Reporter {
  #root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.#root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    process.stdout.write(`\n${skippedSummary(skippedFiles(modules, this.#root))}\n`);
  }
}
