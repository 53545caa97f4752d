import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { documentationFiles } from '../docs/markdown.js';
import { root, SHUTDOWN_MARGIN_MS, TRACING_FLUSH_MS } from './support.js';

/**
 * Wherever the service's image is shown run with `docker run`, the command gives the container
 * time to drain: Docker's default stop timeout (10 s) is shorter than the shutdown the image's
 * configuration asks for, so `docker stop` would kill a request in flight (exit code 137).
 */

const image = loadConfig({ NODE_ENV: 'production', CAMPAIGN_API_URL: 'https://partner-api.example.com' });
/** What a stop takes at most with the image's defaults, and room to close the connections. */
const drainMs = image.shutdownDelayMs + image.shutdownGraceMs + TRACING_FLUSH_MS + SHUTDOWN_MARGIN_MS;

/** Every `docker run` command in a text, its continuation lines (`\` at the end) joined, comment marks dropped. */
function dockerRuns(text: string): string[] {
  const joined = text
    .split('\n')
    .map((line) => line.replace(/^\s*#\s?/, ''))
    .join('\n')
    .replace(/\s*\\\n\s*/g, ' ');
  return [...joined.matchAll(/docker run\b[^\n`]*/g)].map((m) => m[0]);
}

const SOURCES = [...documentationFiles(), 'Dockerfile'];

describe('docker run of the service', () => {
  const runs = SOURCES.flatMap((file) => dockerRuns(readFileSync(join(root, file), 'utf8')).map((command) => ({ file, command }))).filter(({ command }) => command.includes('campaign-bff'));

  it('is shown in the Dockerfile and the runbook', () => {
    expect(new Set(runs.map((r) => r.file))).toEqual(new Set(['Dockerfile', 'docs/operations.md']));
  });

  it(`always gives the container --stop-timeout of at least the drain (${drainMs / 1000} s)`, () => {
    for (const { file, command } of runs) {
      const timeout = /--stop-timeout[= ](\d+)/.exec(command);
      expect(timeout, `${file}: ${command}`).not.toBeNull();
      expect(Number(timeout![1]) * 1000, `${file}: ${command}`).toBeGreaterThanOrEqual(drainMs);
    }
  });

  it('reads commands across continuation lines and comments', () => {
    expect(dockerRuns('#   docker run --rm \\\n#     -p 1:1 img\n')).toEqual(['docker run --rm -p 1:1 img']);
  });
});
