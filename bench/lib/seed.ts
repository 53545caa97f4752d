import { restCampaignBody } from './campaign-samples.js';

/** Fills the emulator through its public REST API, as a partner would. */

async function rest(origin: string, token: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (response.status !== 200 || parsed.status !== 'success') {
    throw new Error(`seeding: POST /v1/${path} should succeed, got HTTP ${response.status}: ${text.slice(0, 500)}`);
  }
  return parsed;
}

/** The partner's campaign ids in list order (ymCampaignId), first page of up to 100. */
export async function listCampaignIds(origin: string, token: string): Promise<number[]> {
  const page = await rest(origin, token, 'campaigns/get-all-campaigns', { limit: 100, offset: 0 });
  const campaigns = page.campaigns as { ymCampaignId: number }[];
  return campaigns.map((c) => c.ymCampaignId);
}

/**
 * Makes sure the partner has at least `count` campaigns, creating the missing ones with
 * partnerCampaignIds from `firstPartnerId` on. Returns the ids of the first page.
 */
export async function ensureCampaigns(origin: string, token: string, count: number, firstPartnerId: number): Promise<number[]> {
  const existing = await listCampaignIds(origin, token);
  const missing = Math.max(0, count - existing.length);
  for (let i = 0; i < missing; i++) {
    await rest(origin, token, 'campaigns/create', restCampaignBody(firstPartnerId + i));
  }
  const ids = await listCampaignIds(origin, token);
  if (ids.length < count) throw new Error(`seeding: wanted at least ${count} campaigns, the list has ${ids.length}`);
  return ids;
}
