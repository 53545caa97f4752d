import { int, section } from './setting.js';

export const live = section({
  title: 'Live status',
  about: 'Subscriptions to campaign status over WebSocket and SSE: how often statuses are read while someone watches them, and what one connection or partner may hold.',
  shape: {
    SUBSCRIPTION_POLL_INTERVAL_MS: int(100, 600_000, 3000, { description: "How often a partner's campaign statuses are read while someone watches them." }),
    SUBSCRIPTION_POLL_BACKOFF_MAX_MS: int(100, 3_600_000, 30_000, {
      description: 'The longest wait between reads while the backend fails (doubling from the interval); at least `SUBSCRIPTION_POLL_INTERVAL_MS`.',
    }),
    SUBSCRIPTIONS_PER_CONNECTION: int(1, 1000, 20, { description: 'Subscriptions one WebSocket connection may hold.' }),
    SUBSCRIPTION_MAX_IDS: int(1, 10_000, 100, { description: 'Ids one `campaignChanged(ids:)` may watch.' }),
    SUBSCRIPTION_CONNECTIONS_PER_PARTNER: int(1, 1_000_000, 2000, { description: 'WebSocket connections and SSE streams of one partner on one instance.' }),
    SUBSCRIPTION_INIT_TIMEOUT_MS: int(100, 60_000, 3000, { description: 'The time a new WebSocket gets to send `connection_init`.' }),
    SUBSCRIPTION_KEEPALIVE_MS: int(0, 600_000, 12_000, { description: 'The WebSocket ping interval (a socket that does not answer within it is dropped); `0` turns pings off.' }),
  },
  check: (e) =>
    e.SUBSCRIPTION_POLL_BACKOFF_MAX_MS < e.SUBSCRIPTION_POLL_INTERVAL_MS
      ? [`SUBSCRIPTION_POLL_BACKOFF_MAX_MS=${e.SUBSCRIPTION_POLL_BACKOFF_MAX_MS} must be at least SUBSCRIPTION_POLL_INTERVAL_MS=${e.SUBSCRIPTION_POLL_INTERVAL_MS}`]
      : [],
  build: (e) => ({
    pollIntervalMs: e.SUBSCRIPTION_POLL_INTERVAL_MS,
    backoffMaxMs: e.SUBSCRIPTION_POLL_BACKOFF_MAX_MS,
    subscriptionsPerConnection: e.SUBSCRIPTIONS_PER_CONNECTION,
    maxIds: e.SUBSCRIPTION_MAX_IDS,
    connectionsPerPartner: e.SUBSCRIPTION_CONNECTIONS_PER_PARTNER,
    initTimeoutMs: e.SUBSCRIPTION_INIT_TIMEOUT_MS,
    /** 0: no pings. */
    keepAliveMs: e.SUBSCRIPTION_KEEPALIVE_MS,
  }),
});
