/** The emulator as the soak drives and judges it: its REST API as a partner, and its admin API. */

export class Backend {
  constructor(readonly origin: string) {}

  async admin<T = any>(route: string, body?: unknown, method?: 'GET' | 'POST' | 'DELETE'): Promise<T> {
    const response = await fetch(`${this.origin}/_emulator/${route}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`emulator admin ${route} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  /** One REST operation as the partner `token`; anything but a success is an error here. */
  async rest<T = any>(path: string, token: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.origin}/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    const answer = JSON.parse(text) as { status?: string };
    if (answer.status !== 'success') throw new Error(`REST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return answer as T;
  }

  async campaignIds(token: string): Promise<number[]> {
    const ids: number[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.rest<{ total: number; campaigns: { ymCampaignId: number }[] }>('campaigns/get-all-campaigns', token, { limit: 100, offset });
      ids.push(...page.campaigns.map((c) => c.ymCampaignId));
      if (ids.length >= page.total || page.campaigns.length === 0) return ids;
    }
  }

  async campaign(token: string, ymCampaignId: number): Promise<Record<string, any>> {
    return (await this.rest<{ result: Record<string, any> }>('campaigns/get', token, { ymCampaignId })).result;
  }

  async pins(token: string, ymCampaignId: number): Promise<string[]> {
    const statuses = ['new_unused', 'accepted_by_user', 'redeem_received'];
    const lists = await Promise.all(statuses.map((pinStatus) => this.rest<{ result: { pins: string[] } }>('campaigns/get-pins-by-status', token, { ymCampaignId, pinStatus })));
    return lists.flatMap((l) => l.result.pins);
  }

  async redeems(token: string, ymCampaignId: number): Promise<number> {
    return (await this.rest<{ result: { campaignRedeems: number } }>('campaigns/info', token, { ymCampaignId })).result.campaignRedeems;
  }
}
