import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentHash, loadTrustedDocuments } from '../../src/pipeline/trusted-documents.js';
import { ConfigError } from '../../src/config.js';
import { startStack } from '../helpers/stack.js';

const dir = mkdtempSync(join(tmpdir(), 'bff-manifest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const manifest = (content: unknown) => {
  const file = join(dir, `m${++n}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('trusted documents manifest', () => {
  it("reads GraphQL Codegen's persisted-documents.json: hash to document, by id with or without sha256:, or by text", () => {
    const query = 'query Categories { categories { id name } }';
    const mutation = 'mutation Stop($id: ID!) { stopCampaign(id: $id) { userErrors { code } } }';
    const docs = loadTrustedDocuments(manifest({ [sha(query)]: query, [sha(mutation)]: mutation }));
    expect(docs.size).toBe(2);
    expect(docs.byId(sha(query))?.query).toBe(query);
    expect(docs.byId(`sha256:${sha(query).toUpperCase()}`)).toEqual({ hash: sha(query), query, operationName: 'Categories' });
    expect(docs.byId(sha(mutation))).toEqual({ hash: sha(mutation), query: mutation, operationName: 'Stop' });
    expect(docs.byText(query)?.hash).toBe(sha(query));
    expect(docs.byId('0'.repeat(64))).toBeUndefined();
    expect(documentHash('md5:abc')).toBeUndefined();
  });

  it('says what is wrong with a manifest, naming the file and the entry', () => {
    const cases: [unknown, RegExp][] = [
      ['{', /cannot read it as JSON/],
      [[], /expected an object mapping sha256 hashes to documents/],
      [{ abc: '{ categories { id } }' }, /key "abc" is not a sha256 hash/],
      [{ [sha('x')]: 42 }, /the document of [0-9a-f]{64} is not a string/],
      [{ [sha('x')]: '{ categories {' }, /the document of [0-9a-f]{64} does not parse/],
    ];
    for (const [content, message] of cases) {
      const file = manifest(content);
      expect(() => loadTrustedDocuments(file)).toThrow(message);
      expect(() => loadTrustedDocuments(file)).toThrow(`TRUSTED_DOCUMENTS=${file}`);
    }
  });

  it("reads Apollo's persisted-query manifest (Apollo iOS, Apollo Kotlin, generate-persisted-query-manifest)", () => {
    const query = 'query Tabs { categories { id name } }';
    const subscription = 'subscription Live($ids: [ID!]) { campaignChanged(ids: $ids) { status } }';
    const docs = loadTrustedDocuments(
      manifest({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [
          { id: sha(query), name: 'Tabs', type: 'query', body: query },
          { id: sha(subscription), name: 'Live', type: 'subscription', body: subscription },
        ],
      }),
    );
    expect(docs.size).toBe(2);
    expect(docs.byId(sha(query))).toEqual({ hash: sha(query), query, operationName: 'Tabs' });
    expect(docs.byId(`sha256:${sha(subscription)}`)).toEqual({ hash: sha(subscription), query: subscription, operationName: 'Live' });
    expect(docs.byText(query)?.hash).toBe(sha(query));
    expect([...docs.operationNames].sort()).toEqual(['Live', 'Tabs']);
  });

  it("says what is wrong with an Apollo manifest, naming the entry", () => {
    const query = 'query Tabs { categories { id name } }';
    const apollo = (operations: unknown, extra: Record<string, unknown> = {}) => ({ format: 'apollo-persisted-query-manifest', version: 1, operations, ...extra });
    const cases: [unknown, RegExp][] = [
      [{ format: 'relay', version: 1, operations: [] }, /"format" "relay" is not "apollo-persisted-query-manifest"/],
      [apollo([], { version: 2 }), /apollo-persisted-query-manifest version 2 is not supported \(version 1 is\)/],
      [apollo({}), /"operations" must be a list/],
      [apollo(['x']), /operations\[0\] is not an object with "id", "name", "type" and "body"/],
      [apollo([{ id: 'Tabs', name: 'Tabs', type: 'query', body: query }]), /operations\[0\]\.id "Tabs" is not a sha256 hash/],
      [apollo([{ id: sha(query), name: 'Tabs', type: 'query' }]), /the document of [0-9a-f]{64} is not a string/],
      [apollo([{ id: sha(query), name: 'Tabs', type: 'mutation', body: query }]), /operations\[0\] \([0-9a-f]{64}\) says "mutation" "Tabs", but its body holds query Tabs/],
      [apollo([{ id: sha(query), name: 'Other', type: 'query', body: query }]), /says "query" "Other", but its body holds query Tabs/],
    ];
    for (const [content, message] of cases) {
      const file = manifest(content);
      expect(() => loadTrustedDocuments(file)).toThrow(message);
      expect(() => loadTrustedDocuments(file)).toThrow(`TRUSTED_DOCUMENTS=${file}`);
    }
  });

  it('reports, and still serves, a hash that is not the sha256 of its text', () => {
    const mismatched: string[] = [];
    const docs = loadTrustedDocuments(manifest({ [sha('other')]: '{ categories { id } }' }), (hash) => mismatched.push(hash));
    expect(mismatched).toEqual([sha('other')]);
    expect(docs.byId(sha('other'))).toBeDefined();
    // Its own text, and the text its hash names, both find it; nothing else does.
    expect(docs.byText('{ categories { id } }')?.hash).toBe(sha('other'));
    expect(docs.byText('other')?.hash).toBe(sha('other'));
    expect(docs.byText('{ categories { name } }')).toBeUndefined();
  });

  it('a manifest the server cannot use stops start-up with a ConfigError', async () => {
    await expect(startStack({ env: { TRUSTED_DOCUMENTS: manifest('{') } })).rejects.toBeInstanceOf(ConfigError);
  });
});
