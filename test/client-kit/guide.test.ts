import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';

/**
 * The client guide's input-to-output map (client/README.md) covers every field of
 * CreateCampaignInput, and every field it names exists on Campaign.
 */
const guide = readFileSync(new URL('../../client/README.md', import.meta.url), 'utf8');
const schema = createSchema();
type Fields = Record<string, { type: { toString(): string } }>;
const fieldsOf = (name: string) => (schema.getType(name) as unknown as { getFields(): Fields }).getFields();

describe('client guide', () => {
  const section = guide.slice(guide.indexOf('## From input to output'));
  const rows = [...section.matchAll(/^\| `(\w+)`(?: \/ `(\w+)`)? \| (.+) \|$/gm)];

  it('maps every CreateCampaignInput field', () => {
    const mapped = rows.flatMap((r) => [r[1], r[2]].filter(Boolean));
    expect(Object.keys(fieldsOf('CreateCampaignInput')).filter((f) => !mapped.includes(f))).toEqual([]);
  });

  it('names only fields that exist on Campaign', () => {
    const campaign = fieldsOf('Campaign');
    const unknown: string[] = [];
    for (const row of rows) {
      for (const [, path] of row[3]!.matchAll(/`([a-z]\w*(?:\.\w+)?)`/g)) {
        if (path === 'null') continue;
        const [field, sub] = path!.split('.') as [string, string | undefined];
        const def = campaign[field];
        if (!def) unknown.push(path!);
        else if (sub && !fieldsOf(def.type.toString().replace(/[![\]]/g, ''))[sub]) unknown.push(path!);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('shows the split link for subscriptions (GraphQLWsLink for campaignChanged, HTTP for the rest) as client/src/link.ts builds it', () => {
    const section = guide.slice(guide.indexOf('## Live status'), guide.indexOf('## Cursors'));
    expect(section).toContain('connectionParams: { authorization: `Bearer ${token}` }');
    const link = readFileSync(new URL('../../client/src/link.ts', import.meta.url), 'utf8');
    for (const part of ['ApolloLink.split(', 'isSubscriptionOperation(query)', 'new GraphQLWsLink(subscribingByHash(ws))', 'persistedDocumentsLink()']) {
      expect(section).toContain(part);
      expect(link).toContain(part);
    }
  });
});
