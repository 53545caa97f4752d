import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The kit's generated types: every custom scalar in a result is a `string` (codegen types an
 * unconfigured scalar `any`, so a typo in a date or an amount would go unnoticed).
 */
const generated = readFileSync(new URL('../../client/src/gql/graphql.ts', import.meta.url), 'utf8');

describe('client codegen', () => {
  it('types DateTime, Decimal, HexColorCode and URL results as strings, SafeInt as number, never any or unknown', () => {
    const detail = /export type CampaignDetailQuery = (.*);/.exec(generated)?.[1] ?? '';
    expect(detail).toContain('startsAt: string | null'); // DateTime
    expect(detail).toContain('value: string | null'); // Decimal
    expect(detail).toContain('amount: string | null'); // Decimal (fee)
    expect(detail).toContain('logoPngUrl: string'); // URL
    expect(detail).toContain('backgroundColor: string'); // HexColorCode
    expect(detail).toMatch(/partnerCampaignId: number\b/); // SafeInt
    expect(generated.replace(/^type Exact<.*$/m, '')).not.toMatch(/:\s*(?:any|unknown)\b/);
  });
});
