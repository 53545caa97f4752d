import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_OPERATIONS } from '../../src/observability/operation-names.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function operationNames(text: string): string[] {
  return parse(text).definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : []));
}

describe('the operation names the metrics know', () => {
  it('are exactly those of docs/operations/ and of the client kit\'s manifest', () => {
    const documented = readdirSync(join(root, 'docs/operations'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.graphql'))
      .flatMap((file) => operationNames(readFileSync(join(root, 'docs/operations', file), 'utf8')));
    const kit = Object.values(JSON.parse(readFileSync(join(root, 'client/src/gql/persisted-documents.json'), 'utf8')) as Record<string, string>).flatMap(operationNames);
    expect(documented.length).toBeGreaterThan(10);
    expect(kit.length).toBeGreaterThan(3);
    expect([...DOCUMENTED_OPERATIONS].sort()).toEqual([...new Set([...documented, ...kit])].sort());
  });
});
