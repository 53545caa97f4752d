import { execFile } from 'node:child_process';
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';
import { codeBlocks, documentationFiles, noRunReason, root, type CodeBlock } from './markdown.js';

/**
 * Every shell and GraphQL example of the documentation runs, against what `npm start` runs: the
 * built entry in development on the embedded emulator, with its demo tokens, demo app key and the
 * kit's manifest. The documented addresses (localhost:4000 for the API, localhost:4010 for the
 * emulator) are the defaults of `npm start`; the test's instance listens on free ports, so those
 * two addresses are replaced by its own in each block, and nothing else is.
 *
 * A block that cannot run here (a container runtime, a cluster, the real partner API, a stream
 * that never ends) says so on its fence, ```sh no-run: <why>, and is listed, not run. Each block
 * starts from the emulator's fresh demo data.
 */
const SHELL = new Set(['sh', 'bash', 'shell']);
const files = documentationFiles().filter((file) => (!file.startsWith('client/') || file === 'client/README.md') && !file.startsWith('src/'));
const blocks = files.flatMap(codeBlocks);
const shell = blocks.filter((b) => SHELL.has(b.lang));
const graphql = blocks.filter((b) => b.lang === 'graphql');
const where = (b: CodeBlock) => `${b.file}:${b.line}`;

let bff: BuiltEntry;
let api: URL;
let emulator: URL;
beforeAll(async () => {
  bff = await startBuiltEntry();
  api = new URL(bff.url);
  emulator = new URL(bff.emulatorUrl!);
}, 30_000);
afterAll(() => bff?.stop());

const reset = async () => {
  const response = await fetch(new URL('/_emulator/reset', emulator), { method: 'POST' });
  expect(response.status).toBe(200);
};

/** The block as a reader runs it against `npm start`, pointed at this test's instance. */
function localised(code: string): string {
  return code
    .replace(/\b(?:localhost|127\.0\.0\.1):4000\b/g, api.host)
    .replace(/\b(?:localhost|127\.0\.0\.1):4010\b/g, emulator.host);
}

function runShell(code: string): Promise<{ status: number; output: string }> {
  // curl fails on an HTTP error status, as a reader would notice one; everything else as written.
  const script = `set -euo pipefail\ncurl() { command curl --fail-with-body --show-error "$@"; }\n${localised(code)}\n`;
  const env: NodeJS.ProcessEnv = { ...process.env, BFF_URL: bff.url };
  for (const name of ['NODE_OPTIONS', 'TOKEN', 'APP_KEY']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: root, env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ status, output: `${stdout}${stderr}` });
    });
  });
}

describe('documentation examples', () => {
  it('finds the examples, and every block left out says why', () => {
    expect(shell.filter((b) => noRunReason(b) === undefined).length).toBeGreaterThan(5);
    expect(graphql.length).toBeGreaterThan(1);
    const unexplained = blocks.filter((b) => /\bno-?run\b/i.test(b.info) && (noRunReason(b) ?? '').length < 10).map(where);
    expect(unexplained).toEqual([]);
    // Annotations are for shell blocks; a GraphQL example always runs or is validated.
    expect(blocks.filter((b) => !SHELL.has(b.lang) && noRunReason(b) !== undefined).map(where)).toEqual([]);
  });

  it.each(shell.filter((b) => noRunReason(b) === undefined).map((b) => [where(b), b] as const))(
    'runs the shell block at %s',
    async (_where, block) => {
      await reset();
      const { status, output } = await runShell(block.code);
      expect({ status, output: status === 0 ? '' : output }).toEqual({ status: 0, output: '' });
      // A GraphQL answer printed by the example has no errors, and a mutation's no user errors.
      expect(output).not.toMatch(/"errors"\s*:/);
      expect(output).not.toMatch(/"userErrors"\s*:\s*\[\s*\{/);
    },
    40_000,
  );

  const schema = createSchema();
  it.each(graphql.map((b) => [where(b), b] as const))('validates and runs the GraphQL block at %s', async (_where, block) => {
    const document = parse(block.code);
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
    if (!operation || operation.kind !== 'OperationDefinition' || operation.operation !== 'query') return;
    // Run with no variables: the examples' variables are optional.
    await reset();
    const app = /\bofferFeed\b/.test(block.code);
    const response = await fetch(bff.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(app ? { 'x-app-key': 'demo-app-key' } : { authorization: 'Bearer demo-store-token' }) },
      body: JSON.stringify({ query: block.code }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    expect({ status: response.status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    expect(body.data).toBeTruthy();
  });
});
