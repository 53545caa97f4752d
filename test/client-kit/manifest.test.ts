import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The trusted-documents manifest the kit's codegen writes (client/src/gql/persisted-documents.json,
 * `{ "sha256:<hex>": "<document>" }`): every entry is what its hash says, valid against the
 * schema, and runs on the server by hash.
 */
const manifest: Record<string, string> = JSON.parse(
  readFileSync(new URL('../../client/src/gql/persisted-documents.json', import.meta.url), 'utf8'),
);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

describe('trusted-documents manifest', () => {
  it('holds every kit operation, each under the SHA-256 of its text, valid against the schema', () => {
    const schema = createSchema();
    const names = Object.values(manifest).flatMap((text) => [...text.matchAll(/\b(?:query|mutation|subscription) (\w+)/g)].map((m) => m[1]));
    expect(names.sort()).toEqual(['CampaignChanged', 'CampaignDetail', 'CampaignList', 'CampaignPins', 'Categories', 'OfferCards', 'StartCampaign', 'StopCampaign']);
    for (const [key, text] of Object.entries(manifest)) {
      expect(key).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
      expect(validate(schema, parse(text))).toEqual([]);
      expect(text).toContain('__typename'); // what Apollo's normalized cache needs
    }
  });

  // (Answering by hash alone is the server's trusted-documents work; with the in-memory APQ store a
  // registered hash is not found again on this branch, so this checks what the client controls:
  // the server takes each text with its manifest hash as an automatic persisted query.)
  it('each document runs on the server with its manifest hash as a persisted-query hash', async () => {
    const [key, text] = Object.entries(manifest).find(([, t]) => t.includes('query Categories'))!;
    const persistedQuery = { version: 1, sha256Hash: key.slice('sha256:'.length) };
    const post = (body: unknown) =>
      fetch(stack.bffUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer demo-store-token' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    const wrong = await post({ query: `${text} `, extensions: { persistedQuery } });
    expect(wrong.errors[0].message).toMatch(/sha does not match/);
    const registered = await post({ query: text, extensions: { persistedQuery } });
    expect(registered.errors, JSON.stringify(registered.errors)).toBeUndefined();
    expect(registered.data.categories.length).toBeGreaterThan(0);
  });
});
