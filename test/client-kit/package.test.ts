import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printClientSchema } from '../../scripts/client-schema.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';

/**
 * The kit as another repository installs it: `npm pack` of client/ (its prepack builds it), the
 * tarball unpacked into a fresh directory's node_modules with its dependencies (the typed
 * document node's types; the peers Apollo Client, graphql, graphql-ws, rxjs; ws and the codegen
 * preset for this test) taken from this repository, as npm would install them, then imported by plain Node and type-checked by tsc there: the link, the cache
 * policies, the documents, the codegen settings, the SDL and the manifest, all through `exports`.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NAME = '@campaign-bff/client-kit';
const INSTALLED_WITH_IT = ['@graphql-typed-document-node/core', '@apollo/client', 'graphql', 'graphql-ws', 'rxjs', 'ws', '@graphql-codegen/client-preset'];

let dir: string;
let app: string;
let installed: string;
let stack: Stack;
let packedFiles: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kit-package-'));
  const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--json'], {
    cwd: join(ROOT, 'client'),
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  packedFiles = packed!.files.map((file) => file.path);
  app = join(dir, 'app');
  installed = join(app, 'node_modules', NAME);
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(dir, packed!.filename), '-C', installed, '--strip-components=1']);
  for (const peer of INSTALLED_WITH_IT) {
    mkdirSync(dirname(join(app, 'node_modules', peer)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', peer), join(app, 'node_modules', peer), 'dir');
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-team-app', private: true, type: 'module' }));
  stack = await startStack({
    emulator: { moderation: { mode: 'manual' } },
    env: {
      NODE_ENV: 'production',
      CAMPAIGN_API_URL: 'http://127.0.0.1:1', // replaced by the stack's emulator
      TRUSTED_DOCUMENTS: join(installed, 'src/gql/persisted-documents.json'),
      TRUSTED_DOCUMENTS_ONLY: 'true',
    },
  });
}, 240_000);

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the kit as a package', () => {
  it('packs its build, the SDL, the manifest and the guide, and no sources', () => {
    const files = (path: string) => readFileSync(join(installed, path), 'utf8');
    const manifest = JSON.parse(files('package.json'));
    expect(manifest).toMatchObject({ name: NAME, type: 'module', types: './dist/index.d.ts' });
    expect(Object.keys(manifest.exports)).toEqual(['.', './documents', './codegen', './schema.graphql', './persisted-documents.json', './package.json']);
    const outsideBuild = packedFiles.filter((path) => !path.startsWith('dist/'));
    expect(outsideBuild.sort()).toEqual(['README.md', 'package.json', 'schema.graphql', 'src/gql/persisted-documents.json']);
    expect(packedFiles.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
    expect(packedFiles).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/link.js', 'dist/type-policies.js', 'dist/list-updates.js', 'dist/codegen.js']));
    expect(files('schema.graphql')).toBe(printClientSchema());
    expect(files('src/gql/persisted-documents.json')).toBe(readFileSync(join(ROOT, 'client/src/gql/persisted-documents.json'), 'utf8'));
  });

  it('runs in plain Node from another directory: its link reads and writes by manifest hash on a server that runs trusted documents only', async () => {
    writeFileSync(
      join(app, 'main.mjs'),
      `
import { ApolloClient } from '@apollo/client';
import WebSocket from 'ws';
import { createCache, createLink, keepCampaignLists, scalars, typePolicies } from '${NAME}';
import { CampaignDetail, StopCampaign, StartCampaign } from '${NAME}/documents';
import { documentTransforms, presetConfig } from '${NAME}/codegen';

const { link, ws } = createLink({ uri: process.env.BFF_URL, token: 'demo-store-token', webSocketImpl: WebSocket });
const client = new ApolloClient({ link, cache: createCache() });
const detail = await client.query({ query: CampaignDetail, variables: { id: '1' } });
const stopped = await client.mutate({ mutation: StopCampaign, variables: { id: '1' }, update: keepCampaignLists });
await client.mutate({ mutation: StartCampaign, variables: { id: '1' }, update: keepCampaignLists });
console.log(JSON.stringify({
  id: detail.data.campaign.id,
  stopped: stopped.data.stopCampaign.campaign.status,
  scalars,
  policies: Object.keys(typePolicies.Query.fields),
  transforms: documentTransforms.map((t) => typeof t.transform),
  presetConfig,
}));
client.stop();
await ws.dispose();
`,
    );
    const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: app, env: { ...process.env, BFF_URL: stack.bffUrl } });
    expect(JSON.parse(stdout)).toEqual({
      id: cid(1),
      stopped: 'PAUSED',
      scalars: { DateTime: 'string', HexColorCode: 'string', URL: 'string', Decimal: 'string', SafeInt: 'number' },
      policies: ['campaigns', 'offerFeed', 'campaign'],
      transforms: ['function'],
      presetConfig: { fragmentMasking: false, persistedDocuments: true },
    });
  }, 60_000);

  it('types resolve through exports with no any: a typed result, and an unknown field is a type error', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: true }, include: ['app.ts'] }),
    );
    writeFileSync(
      join(app, 'app.ts'),
      `
import { ApolloClient } from '@apollo/client';
import { createCache, createLink, keepCampaignLists, type LinkOptions } from '${NAME}';
import { CampaignDetail, StopCampaign } from '${NAME}/documents';
import { documentTransforms, scalars } from '${NAME}/codegen';

const options: LinkOptions = { uri: 'http://localhost:4000/graphql', token: 'demo-store-token' };
const client = new ApolloClient({ link: createLink(options).link, cache: createCache() });

export async function statusOf(id: string): Promise<'DECLINED' | 'FINISHED' | 'MODERATION' | 'PAUSED' | 'PIN_REQUIRED' | 'STARTED' | 'UNKNOWN' | undefined> {
  const { data } = await client.query({ query: CampaignDetail, variables: { id } });
  const startsAt: string | null | undefined = data?.campaign?.startsAt;
  void startsAt;
  // @ts-expect-error the result is typed: a field the document does not select does not exist
  void data?.campaign?.noSuchField;
  // @ts-expect-error variables are typed too
  void client.mutate({ mutation: StopCampaign, variables: { campaignId: '1' }, update: keepCampaignLists });
  return data?.campaign?.status;
}
export const codegen = { documentTransforms, scalars };
`,
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 120_000);

  it('publishes the schema as SDL: every document of its manifest is valid against it', () => {
    const schema = buildSchema(readFileSync(join(installed, 'schema.graphql'), 'utf8'));
    const manifest: Record<string, string> = JSON.parse(readFileSync(join(installed, 'src/gql/persisted-documents.json'), 'utf8'));
    for (const text of Object.values(manifest)) expect(validate(schema, parse(text))).toEqual([]);
  });
});
