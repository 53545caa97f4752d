import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';

/**
 * The client guide (client/README.md) tells how inputs relate to outputs: from 1.0 they carry the
 * output's names (so a form is sent back as it is), the old names are in CHANGELOG.md, and every
 * field it names exists.
 */
const guide = readFileSync(new URL('../../client/README.md', import.meta.url), 'utf8');
const schema = createSchema();
type Fields = Record<string, { type: { toString(): string } }>;
const fieldsOf = (name: string) => (schema.getType(name) as unknown as { getFields(): Fields }).getFields();

describe('client guide', () => {
  const section = guide.slice(guide.indexOf('## From input to output'));
  /** The section up to the next one: what the guide says about inputs and outputs. */
  const text = section.slice(0, section.indexOf('\n## ', 3));

  it('says the inputs carry the output names, which is so, and points to the migration table', () => {
    expect(text).toMatch(/take the fields of `Campaign` under their own names/);
    expect(text).toContain('](../CHANGELOG.md)');
    const campaign = fieldsOf('Campaign');
    expect(Object.keys(fieldsOf('CreateCampaignInput')).filter((f) => !campaign[f])).toEqual([]);
  });

  it('names only fields that exist on Campaign', () => {
    const campaign = fieldsOf('Campaign');
    const paths = [...text.matchAll(/`((?:merchant|appearance|discount|fee|pinSettings|cashback|stats)\.\w+)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(3);
    const unknown = paths.filter((path) => {
      const [field, sub] = path.split('.') as [string, string];
      const def = campaign[field];
      return !def || !fieldsOf(def.type.toString().replace(/[![\]]/g, ''))[sub];
    });
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
