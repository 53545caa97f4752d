import { BYSTANDER_APP_KEY, BYSTANDER_TOKEN, CAMPAIGN_CHANGED_ID, OFFER_FEED_ID, type Target } from './harness.js';
import { bodyOf, http, type Outcome } from './transports.js';
import WebSocket from 'ws';

/**
 * Callers who are not attacking, working all along: a partner reading its campaigns' count, an
 * app reading the offer feed (the trusted document, by id), and a partner watching its campaigns
 * over WebSocket. Each comes from a loopback address of its own, as another client would from
 * another machine, so that what the BFF keeps per address is not the attacker's. Every answer is
 * checked as it comes: 200 with data and no errors; the watcher's socket must stay open.
 */

/** A bystander's request that did not get its answer. */
export interface Degraded {
  at: number;
  who: string;
  what: string;
}

const ADDRESSES = { partner: '127.0.0.2', app: '127.0.0.3', watcher: '127.0.0.4' } as const;
/** Pauses between a bystander's requests: steady traffic, within the app's per-address rate limit. */
const PARTNER_PAUSE_MS = 20;
const APP_PAUSE_MS = 100;

const summary = (outcome: Outcome) => (outcome.kind === 'http' ? `${outcome.status} ${outcome.text.slice(0, 300)}` : JSON.stringify(outcome).slice(0, 300));

export interface Bystander {
  /** Requests answered as they should be, per bystander. */
  readonly served: { partner: number; app: number };
  /** Every request that was not, in order. */
  readonly degraded: Degraded[];
  /** The watcher's events (changes of the partner's campaigns). */
  readonly events: any[];
  /** Stops the loops and closes the watcher; what was degraded stays. */
  stop(): Promise<void>;
}

export async function startBystander(target: Target): Promise<Bystander> {
  const served = { partner: 0, app: 0 };
  const degraded: Degraded[] = [];
  const events: any[] = [];
  let running = true;

  const loop = async (who: 'partner' | 'app', pause: number, send: () => Promise<Outcome>, check: (body: any) => boolean) => {
    while (running) {
      const outcome = await send();
      const ok = outcome.kind === 'http' && outcome.status === 200 && outcome.body?.errors === undefined && check(outcome.body?.data);
      if (ok) served[who]++;
      else degraded.push({ at: Date.now(), who, what: summary(outcome) });
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  const partner = loop(
    'partner',
    PARTNER_PAUSE_MS,
    () =>
      http(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${BYSTANDER_TOKEN}` },
        body: bodyOf({ query: '{ campaigns { totalCount } }' }),
        localAddress: ADDRESSES.partner,
      }),
    (data) => typeof data?.campaigns?.totalCount === 'number',
  );
  const app = loop(
    'app',
    APP_PAUSE_MS,
    () =>
      http(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-key': BYSTANDER_APP_KEY },
        body: bodyOf({ documentId: OFFER_FEED_ID, variables: '{"first":5}' }),
        localAddress: ADDRESSES.app,
      }),
    (data) => typeof data?.offerFeed?.totalCount === 'number',
  );

  // The watcher: acknowledged and subscribed before the attack starts, open until the end.
  const socket = new WebSocket(target.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { localAddress: ADDRESSES.watcher });
  let closedByUs = false;
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${BYSTANDER_TOKEN}` } })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: 'watch', type: 'subscribe', payload: { query: '', documentId: CAMPAIGN_CHANGED_ID, variables: {} } }));
        resolve();
      } else if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      else if (message.type === 'next' && message.payload?.data && !message.payload.errors) events.push(message.payload.data);
      else degraded.push({ at: Date.now(), who: 'watcher', what: `unexpected message ${String(data).slice(0, 300)}` });
    });
    socket.once('close', (code, reason) => {
      if (!closedByUs) degraded.push({ at: Date.now(), who: 'watcher', what: `socket closed ${code} ${reason.toString()}` });
      reject(new Error(`the watcher's socket closed (${code})`));
    });
  });

  return {
    served,
    degraded,
    events,
    async stop() {
      running = false;
      await Promise.all([partner, app]);
      closedByUs = true;
      socket.close(1000);
    },
  };
}
