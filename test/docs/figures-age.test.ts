import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './markdown.js';

/**
 * Every section that gives measured figures for the request path names the run behind them in one
 * line: "Measured at commit `<hash>`, Node <version>, <date>". This reads each such section and
 * holds it true:
 * - the Node is the image's (the Dockerfile's `FROM node:<version>`), so a figure is never from a
 *   release the service does not run;
 * - the commit is in the history, and no commit after it changed the request path (`src/`, the
 *   emulator aside), unless the section says "Stale:" and why: a change to the code the figures
 *   describe fails here until the bench is run again or the page says its figures are older;
 * - a section that says "Stale:" is stale, so the word is taken away when the figures are new.
 */

interface Section {
  file: string;
  heading: string;
}

/** The sections whose figures an operator or a contributor sizes and compares by. */
const SECTIONS: readonly Section[] = [
  { file: 'docs/performance.md', heading: '## Latest results' },
  { file: 'docs/performance.md', heading: '## Against the last release' },
  { file: 'docs/performance.md', heading: '## Against Hive Gateway' },
  { file: 'docs/operations.md', heading: '## Sizing a fleet' },
  { file: 'bench/README.md', heading: '## Latest accepted run' },
];

const MEASURED = /Measured at commit `([0-9a-f]{7,40})`, Node (\d+\.\d+\.\d+), (\d{4}-\d{2}-\d{2})/;
const STALE = /\bStale:/;

/** A section's text: from its heading to the next heading of the same or a higher level. */
function sectionText(markdown: string, heading: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return undefined;
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** What a section says of its run, or why it cannot be read. */
function measuredLine(text: string): { commit: string; node: string; date: string } | undefined {
  const match = MEASURED.exec(text);
  return match ? { commit: match[1]!, node: match[2]!, date: match[3]! } : undefined;
}

function imageNode(): string {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const match = /^FROM node:(\d+\.\d+\.\d+)/m.exec(dockerfile);
  if (!match) throw new Error('the Dockerfile names no node:<version> base');
  return match[1]!;
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Commits after `commit` that changed the request path. */
function requestPathChangesSince(commit: string): string[] {
  const out = git('log', '--format=%h %s', `${commit}..HEAD`, '--', 'src', ':(exclude)src/emulator');
  return out ? out.split('\n') : [];
}

describe('sectionText and measuredLine', () => {
  const page = '# Page\n\n## A\nMeasured at commit `abc1234`, Node 24.21.0, 2026-11-28.\n### A.1\ntext\n## B\nother\n';

  it('reads a section down to the next heading of its level, its subsections included', () => {
    expect(sectionText(page, '## A')).toContain('### A.1');
    expect(sectionText(page, '## A')).not.toContain('other');
    expect(sectionText(page, '## C')).toBeUndefined();
  });

  it("reads the run's commit, Node and date, and nothing from a section without them", () => {
    expect(measuredLine(sectionText(page, '## A')!)).toEqual({ commit: 'abc1234', node: '24.21.0', date: '2026-11-28' });
    expect(measuredLine(sectionText(page, '## B')!)).toBeUndefined();
  });
});

describe('measured figures name their run, and are marked when the request path changed since', () => {
  const node = imageNode();

  for (const { file, heading } of SECTIONS) {
    describe(`${file} ${heading}`, () => {
      const text = sectionText(readFileSync(join(root, file), 'utf8'), heading);

      it('names the commit, Node and date of its run', () => {
        expect(text, `${file} has no section "${heading}"`).toBeDefined();
        expect(measuredLine(text!), `${file} "${heading}" has no line "Measured at commit \`<hash>\`, Node <version>, <date>"`).toBeDefined();
      });

      it("was measured on the image's Node", () => {
        expect(measuredLine(text ?? '')?.node).toBe(node);
      });

      it('says "Stale:" exactly when a later commit changed the request path', () => {
        const run = measuredLine(text ?? '');
        expect(run).toBeDefined();
        expect(() => git('cat-file', '-e', `${run!.commit}^{commit}`), `${file} "${heading}": commit ${run!.commit} is not in this history`).not.toThrow();
        const changes = requestPathChangesSince(run!.commit);
        const stale = STALE.test(text!);
        if (changes.length > 0) {
          expect(stale, `${file} "${heading}" gives figures of ${run!.commit}, but the request path changed since (${changes.slice(0, 3).join('; ')}): run the bench again, or say "Stale:" and why`).toBe(true);
        } else {
          expect(stale, `${file} "${heading}" says "Stale:", but nothing on the request path changed after ${run!.commit}`).toBe(false);
        }
      });
    });
  }
});
