import { TestRunner } from 'vitest';
import { PROGRAMS, where, type Program } from './system-programs.js';

/**
 * Whether every program a suite needs is here. When one is missing the suite is to be skipped,
 * and `needs` says so on the test file's task (its `meta`, which reaches the reporter in the main
 * process): test/helpers/skipped-suites.ts then names the file and the Debian package to install
 * at the end of the run. Call it in the skip condition itself (`describe.skipIf(!needs('redis-server'))`),
 * so that what is recorded is what was skipped.
 */
export function needs(...programs: Program[]): boolean {
  const missing = programs.filter((program) => where(program) === undefined);
  if (missing.length > 0) record(missing);
  return missing.length === 0;
}

/** What a test file's task carries when a suite of it was skipped for want of programs. */
export interface SkipMeta {
  missingPrograms?: string[];
}

function record(missing: Program[]): void {
  let file;
  try {
    file = TestRunner.getCurrentTest()?.file ?? TestRunner.getCurrentSuite().file;
  } catch {
    // Outside a test file (a script reusing a helper): nothing to report to.
    return;
  }
  const meta = file.meta as SkipMeta;
  meta.missingPrograms = [...new Set([...(meta.missingPrograms ?? []), ...missing])].sort();
}

export const debianPackageOf = (program: string): string => PROGRAMS[program as Program]?.debian ?? program;
