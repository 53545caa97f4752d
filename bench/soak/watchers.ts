import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Backend } from './backend.js';
import type { Partner } from './partners.js';

/**
 * Subscribers of `campaignChanged` held open for the whole soak, half over WebSocket and half over
 * SSE, for every partner. Judged at the end: none dropped while the backend flapped, each one's
 * events per campaign form one chain (every `previousStatus` is the status the last event left),
 * no event about another partner's campaign, and the BFF frees every watcher once they leave.
 */

const SUBSCRIPTION = 'subscription Soak { campaignChanged { campaign { id ymCampaignId status } previousStatus status at } }';

interface Watcher {
  partner: Partner;
  transport: 'websocket' | 'sse';
  events: { id: string; ymCampaignId: number; previousStatus: string | null; status: string }[];
  ended?: string;
  dispose(): void;
}

export interface WatchReport {
  subscribers: number;
  events: number;
  endedEarly: string[];
  chainBreaks: string[];
  leaks: string[];
  /** BFF gauges after every subscriber left. */
  leftOpen: { subscriptions: number; partners: number; connections: number };
}

async function gauge(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

export function startWatchers(bffOrigin: string, metricsUrl: string, partners: Partner[], perPartner: number) {
  const watchers: Watcher[] = [];
  let stopping = false;
  for (const partner of partners) {
    for (let i = 0; i < perPartner; i++) {
      const transport = i % 2 === 0 ? 'websocket' : 'sse';
      const watcher: Watcher = { partner, transport, events: [], dispose: () => {} };
      const sink = {
        next: (result: any) => {
          const event = result.data?.campaignChanged;
          if (event) watcher.events.push({ id: event.campaign.id, ymCampaignId: event.campaign.ymCampaignId, previousStatus: event.previousStatus, status: event.status });
          else watcher.ended ??= `an error result: ${JSON.stringify(result.errors ?? result).slice(0, 200)}`;
        },
        error: (error: unknown) => {
          if (!stopping) watcher.ended ??= `error: ${error instanceof Error ? error.message : JSON.stringify(error).slice(0, 200)}`;
        },
        complete: () => {
          if (!stopping) watcher.ended ??= 'completed by the server';
        },
      };
      const authorization = `Bearer ${partner.token}`;
      if (transport === 'websocket') {
        const client = createWsClient({ url: `${bffOrigin.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization }, retryAttempts: 0 });
        client.subscribe({ query: SUBSCRIPTION }, sink);
        watcher.dispose = () => void client.dispose();
      } else {
        const client = createSseClient({ url: `${bffOrigin}/graphql/stream`, headers: { authorization }, retryAttempts: 0 });
        client.subscribe({ query: SUBSCRIPTION }, sink);
        watcher.dispose = () => client.dispose();
      }
      watchers.push(watcher);
    }
  }

  return {
    count: watchers.length,
    events: () => watchers.reduce((n, w) => n + w.events.length, 0),
    /** Ends every subscription, then judges what they received against the backend's final state. */
    async stop(backend: Backend): Promise<WatchReport> {
      stopping = true;
      const endedEarly = watchers.filter((w) => w.ended).map((w) => `${w.partner.name} over ${w.transport}: ${w.ended}`);
      for (const w of watchers) w.dispose();

      const chainBreaks: string[] = [];
      for (const w of watchers) {
        const last = new Map<string, string>();
        for (const e of w.events) {
          const before = last.get(e.id);
          if (before !== undefined && e.previousStatus !== before) chainBreaks.push(`${w.partner.name}: campaign ${e.id} went ${before} → then ${e.previousStatus} → ${e.status}`);
          last.set(e.id, e.status);
        }
      }
      const leaks: string[] = [];
      for (const partner of new Set(watchers.map((w) => w.partner))) {
        const own = new Set(await backend.campaignIds(partner.token));
        for (const w of watchers.filter((x) => x.partner === partner)) {
          for (const e of w.events) if (!own.has(e.ymCampaignId)) leaks.push(`${partner.name} received an event about campaign ${e.id}, not its own`);
        }
      }

      // The BFF notices closed sockets and streams at once; give it a moment, then read its gauges.
      let leftOpen = { subscriptions: 0, partners: 0, connections: 0 };
      for (let i = 0; i < 50; i++) {
        leftOpen = {
          subscriptions: await gauge(metricsUrl, 'bff_live_subscriptions'),
          partners: await gauge(metricsUrl, 'bff_live_partners'),
          connections: await gauge(metricsUrl, 'bff_live_connections'),
        };
        if (leftOpen.subscriptions + leftOpen.partners + leftOpen.connections === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return {
        subscribers: watchers.length,
        events: watchers.reduce((n, w) => n + w.events.length, 0),
        endedEarly,
        chainBreaks: chainBreaks.slice(0, 20),
        leaks: leaks.slice(0, 20),
        leftOpen,
      };
    },
  };
}
