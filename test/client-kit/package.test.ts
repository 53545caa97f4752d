import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printClientSchema } from '../../scripts/client-schema.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cid } from '../helpers/ids.js';
import { installKitApp, KIT as NAME, ROOT, run, TEAM_CODEGEN, type KitApp } from '../helpers/kit-app.js';

/**
 * The kit as another repository installs it (test/helpers/kit-app.ts: `npm pack` of client/, the
 * tarball unpacked into a fresh directory's node_modules with what an app installs beside it),
 * then imported by plain Node and type-checked by tsc there: the link, the cache policies, the
 * documents, the codegen settings, the SDL, the manifest and its command, all through `exports`.
 */
let kit: KitApp;
let app: string;
let installed: string;
let stack: Stack;
let packedFiles: string[];

beforeAll(async () => {
  kit = await installKitApp();
  ({ app, installed, packedFiles } = kit);
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
  kit?.close();
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
    expect(packedFiles).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/link.js', 'dist/type-policies.js', 'dist/list-updates.js', 'dist/placing.js', 'dist/codegen.js', 'dist/manifest-cli.js']));
    expect(manifest.bin).toEqual({ 'campaign-bff-manifest': './dist/manifest-cli.js' });
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
import { CampaignDetail, CampaignList, StopCampaign } from '${NAME}/documents';
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
  // A list is asked for in a status a campaign can have; UNKNOWN is an answer, never a question.
  void client.query({ query: CampaignList, variables: { status: 'PAUSED' } });
  // @ts-expect-error UNKNOWN is no status to list campaigns in
  void client.query({ query: CampaignList, variables: { status: 'UNKNOWN' } });
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

describe("a team's own documents in production", () => {
  const TEAM_DOCUMENTS = `import { graphql } from './gql/index.js';

export const TeamList = graphql(\`
  query TeamList($first: Int) {
    campaigns(first: $first) { totalCount nodes { id ymCampaignId status merchant { name } } }
  }
\`);
`;
  const TEAM_MAIN = `import { ApolloClient } from '@apollo/client';
import { createCache, createLink } from '@campaign-bff/client-kit';
import { CampaignDetail } from '@campaign-bff/client-kit/documents';
import WebSocket from 'ws';
import { TeamList } from './documents.js';

const sent: string[] = [];
const { link, ws } = createLink({
  uri: process.env.BFF_URL!,
  token: 'demo-store-token',
  webSocketImpl: WebSocket,
  fetch: (input, init) => {
    const body = JSON.parse(String(init?.body));
    sent.push(body.operationName + ':' + (body.query === undefined ? 'hash' : 'text'));
    return fetch(input, init);
  },
});
const client = new ApolloClient({ link, cache: createCache() });
const list = await client.query({ query: TeamList, variables: { first: 2 } });
const detail = await client.query({ query: CampaignDetail, variables: { id: '1' } });
console.log(JSON.stringify({ sent, total: list.data?.campaigns?.totalCount, detail: detail.data?.campaign?.id }));
client.stop();
await ws.dispose();
`;

  it('one command writes the manifest from the kit and the team’s codegen; a server running trusted documents only runs both by hash, one request each', async () => {
    kit.write({ 'codegen.ts': TEAM_CODEGEN, 'src/documents.ts': TEAM_DOCUMENTS, 'src/main.ts': TEAM_MAIN });
    await kit.codegen();
    const said = await kit.manifest('--out', 'trusted-documents.json', 'src/gql/persisted-documents.json');
    const kitManifest: Record<string, string> = JSON.parse(readFileSync(join(installed, 'src/gql/persisted-documents.json'), 'utf8'));
    const team: Record<string, string> = JSON.parse(readFileSync(join(app, 'src/gql/persisted-documents.json'), 'utf8'));
    const merged: Record<string, string> = JSON.parse(readFileSync(join(app, 'trusted-documents.json'), 'utf8'));
    expect(merged).toEqual({ ...kitManifest, ...team });
    expect(said).toBe(
      `trusted-documents.json: ${Object.keys(merged).length} documents (${Object.keys(kitManifest).length} of the kit, 0 kept from the file, 1 new from src/gql/persisted-documents.json).\n` +
        'Start the server with TRUSTED_DOCUMENTS=trusted-documents.json (it reads the file when it starts: restart it after each change).\n',
    );
    // Run again on the same file: what it holds is kept, nothing is added twice.
    expect(await kit.manifest('--out', 'trusted-documents.json', 'src/gql/persisted-documents.json')).toMatch(/: \d+ documents \(\d+ of the kit, 1 kept from the file, 0 new/);

    const production = await startStack({
      emulator: { moderation: { mode: 'manual' } },
      env: { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:1', TRUSTED_DOCUMENTS: join(app, 'trusted-documents.json'), TRUSTED_DOCUMENTS_ONLY: 'true' },
    });
    try {
      writeFileSync(join(app, 'main.bundle.mjs'), await kit.bundle('src/main.ts', 'node'));
      const { stdout } = await run(process.execPath, ['main.bundle.mjs'], { cwd: app, env: { ...process.env, BFF_URL: production.bffUrl } });
      expect(JSON.parse(stdout)).toEqual({ sent: ['TeamList:hash', 'CampaignDetail:hash'], total: 8, detail: cid(1) });
    } finally {
      await production.close();
    }
  }, 120_000);

  it('stops, naming the id and both files, when one id names two documents; nothing is written', async () => {
    const [id] = Object.keys(JSON.parse(readFileSync(join(installed, 'src/gql/persisted-documents.json'), 'utf8')));
    kit.write({ 'clash.json': JSON.stringify({ [id!]: 'query Other { categories { id } }' }) });
    const failed = await kit.manifest('--out', 'clash-out.json', 'clash.json').then(
      () => '',
      (error: { stderr: string; code: number }) => `${error.code} ${error.stderr}`,
    );
    expect(failed).toBe(`1 campaign-bff-manifest: ${id} names two different documents, in ${join(installed, 'src/gql/persisted-documents.json')} and in clash.json\n`);
    expect(() => readFileSync(join(app, 'clash-out.json'))).toThrow();
  });
});
