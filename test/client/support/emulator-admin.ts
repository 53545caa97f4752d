/** The emulator's admin API (design section 3), for arranging tests. */
export function emulatorAdmin(baseUrl: string) {
  async function call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}/_emulator/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as T;
    if (!response.ok) throw new Error(`admin ${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  }
  return {
    reset: () => call('POST', 'reset'),
    moderate: (ymCampaignId: number, decision: 'approve' | 'decline') => call('POST', 'moderate', { ymCampaignId, decision }),
    accept: (ymCampaignId: number) => call<{ pin?: string; clickId?: string }>('POST', 'accept', { ymCampaignId }),
    fault: (fault: { mode: string; operation?: string; latencyMs?: number; code?: string; httpStatus?: number; afterEffect?: boolean; probability?: number }) =>
      call('POST', 'faults', fault),
    clearFaults: () => call('DELETE', 'faults'),
    async calls(): Promise<Record<string, number>> {
      return (await call<{ calls: Record<string, number> }>('GET', 'calls')).calls;
    },
    clearCalls: () => call('DELETE', 'calls'),
  };
}
