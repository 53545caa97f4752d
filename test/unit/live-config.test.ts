import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('live status configuration', () => {
  it('has documented defaults', () => {
    expect(loadConfig({}).live).toEqual({
      pollIntervalMs: 3000,
      backoffMaxMs: 30_000,
      subscriptionsPerConnection: 20,
      maxIds: 100,
      connectionsPerPartner: 2000,
      initTimeoutMs: 3000,
      keepAliveMs: 12_000,
    });
  });

  it('names a bad variable and refuses a backoff shorter than the interval', () => {
    expect(() => loadConfig({ SUBSCRIPTION_MAX_IDS: '0' })).toThrow(/SUBSCRIPTION_MAX_IDS="0": must be a whole number from 1 to 10000/);
    expect(() => loadConfig({ SUBSCRIPTION_POLL_INTERVAL_MS: '5000', SUBSCRIPTION_POLL_BACKOFF_MAX_MS: '1000' })).toThrow(
      /SUBSCRIPTION_POLL_BACKOFF_MAX_MS=1000 must be at least SUBSCRIPTION_POLL_INTERVAL_MS=5000/,
    );
  });
});
