/** The emulator's admin API, as the bench needs it. */

export type CallCounts = Record<string, number>;

export class EmulatorAdmin {
  constructor(private readonly origin: string) {}

  private async call(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.origin}/_emulator/${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`emulator admin ${method} /_emulator/${route} answered ${response.status}: ${text}`);
    return JSON.parse(text) as unknown;
  }

  async resetCalls(): Promise<void> {
    await this.call('DELETE', 'calls');
  }

  /** Per-operation call counters since the last reset, keyed by operation path (`campaigns/get`). */
  async calls(): Promise<CallCounts> {
    const answer = (await this.call('GET', 'calls')) as { calls?: CallCounts };
    if (!answer.calls || typeof answer.calls !== 'object') {
      throw new Error(`emulator GET /_emulator/calls should answer {"calls": {...}}, got ${JSON.stringify(answer)}`);
    }
    return answer.calls;
  }

  /** Every backend operation answers after `ms` milliseconds; 0 removes the fault. */
  async setLatency(ms: number): Promise<void> {
    await this.call('DELETE', 'faults');
    if (ms > 0) await this.call('POST', 'faults', { mode: 'latency', latencyMs: ms });
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', 'faults');
  }

  /** A moderator's decision on a campaign in moderation. */
  async moderate(ymCampaignId: number, decision: 'approve' | 'decline'): Promise<void> {
    await this.call('POST', 'moderate', { ymCampaignId, decision });
  }

  async setModeration(mode: 'auto' | 'manual'): Promise<void> {
    await this.call('POST', 'moderation', { mode });
  }
}
