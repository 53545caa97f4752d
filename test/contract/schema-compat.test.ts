import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { Kind, buildASTSchema, buildSchema, parse, printSchema, visit, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createSchema } from '../../src/server/schema.js';
import { ROOT, SNAPSHOT, checkCompat, describe as describeReport, knownOperations, readAccepted, type AcceptedChange } from '../../scripts/schema-compat.js';

/**
 * The schema from 1.0 on: compared with the released snapshot by GraphQL Inspector, a breaking
 * change fails unless it is accepted (and the failure names the operations it breaks), and every
 * operation clients are known to send validates against the current schema.
 */
const snapshot = readFileSync(SNAPSHOT, 'utf8');
const operations = knownOperations();

/** The released schema (or another) with a change made to its SDL, as a developer would make it. */
function changed(edit: (document: DocumentNode) => DocumentNode, from = snapshot) {
  return buildASTSchema(edit(parse(from)));
}

/** Drops field `field` of type `type` (an object's field or an input object's). */
const withoutField = (type: string, field: string) => (document: DocumentNode) => {
  const drop = (node: { name: { value: string } }, ancestors: readonly unknown[]) => {
    const owner = ancestors.at(-1) as { kind?: string; name?: { value: string } } | undefined;
    return owner?.name?.value === type && node.name.value === field ? null : undefined;
  };
  return visit(document, {
    FieldDefinition: (node, _key, _parent, _path, ancestors) => drop(node, ancestors),
    InputValueDefinition: (node, _key, _parent, _path, ancestors) => ((ancestors.at(-1) as { kind?: string })?.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ? drop(node, ancestors) : undefined),
  });
};

const named = (report: Awaited<ReturnType<typeof checkCompat>>) => report.unaccepted.map(({ change }) => `${change.type} ${change.path}`);

describe('the schema against its last release', () => {
  it('has no breaking change that is not accepted, no stale acceptance, and every known operation is valid', async () => {
    const report = await checkCompat({ snapshot, current: createSchema(), accepted: readAccepted(), operations });
    expect(describeReport(report)).toEqual([]);
  });

  it('knows the operations clients send: the kit, the deployed trusted documents, docs/operations and the guides', () => {
    const sources = new Set(operations.map((op) => op.source.split(' ')[0]!.split('/').slice(0, 2).join('/')));
    expect([...sources].sort()).toEqual(['README.md', 'client/src', 'deploy/kubernetes', 'docs/apps.md', 'docs/operations'].sort());
    const names = new Set(operations.map((op) => op.name));
    for (const name of ['OfferCards', 'CampaignDetail', 'CampaignList', 'StartCampaign', 'CampaignChanged', 'CreateCampaign', 'UpdateCampaign', 'Nodes', 'OfferFeed']) {
      expect(names, name).toContain(name);
    }
  });
});

describe('a breaking change', () => {
  it('fails unless accepted, naming the operations that use what it removes, which no longer validate', async () => {
    const current = changed(withoutField('Campaign', 'status'));
    const report = await checkCompat({ snapshot, current, accepted: [], operations });
    expect(named(report)).toEqual(['FIELD_REMOVED Campaign.status']);
    const broken = report.unaccepted[0]!.operations;
    for (const name of ['CampaignList (client/src', 'StartCampaign (client/src', 'CampaignChanged (client/src', 'Campaigns (docs/operations/campaigns.graphql)']) {
      expect(broken.some((op) => op.startsWith(name)), name).toBe(true);
    }
    expect(broken.some((op) => op.startsWith('OfferCards'))).toBe(false);
    expect(report.invalid.map((i) => i.operation)).toEqual(expect.arrayContaining(broken));
    expect(describeReport(report)[0]).toMatch(/^breaking: FIELD_REMOVED Campaign\.status: .* It would break .*CampaignList/);

    // Accepted, it no longer fails as a change; the operations that use it must still be updated.
    const accepted: AcceptedChange[] = [{ type: 'FIELD_REMOVED', path: 'Campaign.status', why: 'test', migration: 'test' }];
    const again = await checkCompat({ snapshot, current, accepted, operations });
    expect(again.unaccepted).toEqual([]);
    expect(again.invalid.length).toBeGreaterThan(0);
  });

  it('names operations a change breaks even when they still validate (an argument made required)', async () => {
    const current = changed((document) =>
      visit(document, {
        InputValueDefinition: (node) =>
          node.name.value === 'after' && node.type.kind === Kind.NAMED_TYPE && node.type.name.value === 'String'
            ? { ...node, type: { kind: Kind.NON_NULL_TYPE, type: node.type } }
            : undefined,
      }),
    );
    const report = await checkCompat({ snapshot, current, accepted: [], operations });
    expect(named(report)).toEqual(expect.arrayContaining(['FIELD_ARGUMENT_TYPE_CHANGED Query.campaigns.after', 'FIELD_ARGUMENT_TYPE_CHANGED Query.offerFeed.after']));
    const offerFeed = report.unaccepted.find(({ change }) => change.path === 'Query.offerFeed.after')!;
    expect(offerFeed.operations.some((op) => op.startsWith('OfferCards'))).toBe(true);
  });

  it('an input field removed names the operations whose variables carry that input', async () => {
    const current = changed(withoutField('CampaignMerchantInput', 'domain'));
    const report = await checkCompat({ snapshot, current, accepted: [], operations });
    expect(named(report)).toEqual(['INPUT_FIELD_REMOVED CampaignMerchantInput.domain']);
    expect(report.unaccepted[0]!.operations).toEqual(expect.arrayContaining([expect.stringMatching(/^CreateCampaign \(docs\/operations/)]));
  });

  it('a stale acceptance fails; an addition passes', async () => {
    // Made to the schema as it is now, which the known operations (the kit's among them) use.
    const current = changed(
      (document) =>
      visit(document, {
        ObjectTypeDefinition: (node) =>
          node.name.value === 'Category' ? { ...node, fields: [...(node.fields ?? []), { kind: Kind.FIELD_DEFINITION, name: { kind: Kind.NAME, value: 'slug' }, type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'String' } } }] } : undefined,
      }),
      printSchema(createSchema()),
    );
    const stale: AcceptedChange = { type: 'FIELD_REMOVED', path: 'Category.name', why: 'test', migration: 'test' };
    const report = await checkCompat({ snapshot, current, accepted: [stale], operations });
    expect(report).toEqual({ unaccepted: [], stale: [stale], invalid: [] });
  });
});

describe('CHANGELOG.md', () => {
  it('lists every breaking change from the schema before 1.0 to the released 1.0', async () => {
    const before = buildSchema(readFileSync(join(ROOT, 'compat/history/0.1.0.graphql'), 'utf8'));
    const changes = (await diff(before, buildSchema(snapshot))).filter((c) => c.criticality.level === CriticalityLevel.Breaking);
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    const release = changelog.slice(changelog.indexOf('## 1.0.0'));
    // The campaign inputs' table names each 0.x field once for both inputs, in its first column.
    const table = release.slice(release.indexOf('### Campaign inputs'), release.indexOf('### Other breaking changes'));
    const oldInputFields = new Set([...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!));
    const mentioned = (text: string) => release.includes(`\`${text}\``) || release.includes(`\`${text}\`:`);
    const missing = changes
      .map((c) => c.path ?? '')
      .filter((path) => {
        const [type, field] = path.split('.');
        if ((type === 'CreateCampaignInput' || type === 'UpdateCampaignInput') && field && oldInputFields.has(field)) return false;
        if ((type === 'CreateCampaignInput' || type === 'UpdateCampaignInput') && field && table.includes(`\`${field}\``)) return false;
        return !mentioned(path) && !release.includes(path);
      });
    expect(changes.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
