import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/** The settings of running as a fleet behind a load balancer. */
describe('fleet configuration', () => {
  it('refuses READY_BACKEND_WINDOW_MS, which readiness no longer reads, saying what replaced it', () => {
    expect(() => loadConfig({ READY_BACKEND_WINDOW_MS: '30000' })).toThrow(/READY_BACKEND_WINDOW_MS is no longer read: \/readyz no longer turns 503 when the backend is down.*Remove the variable/);
  });

  it('trusts no proxy by default; TRUST_PROXY names them, and a bad value stops start-up', () => {
    expect(loadConfig({})).toMatchObject({ trustProxy: false, trustProxyHeader: 'x-forwarded-for' });
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8', TRUST_PROXY_HEADER: 'forwarded' })).toMatchObject({
      trustProxy: ['loopback', '10.0.0.0/8'],
      trustProxyHeader: 'forwarded',
    });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY="true": true would trust every hop/);
    expect(() => loadConfig({ TRUST_PROXY: 'lopback' })).toThrow(/TRUST_PROXY="lopback": invalid IP address: lopback/);
    expect(() => loadConfig({ TRUST_PROXY_HEADER: 'x-real-ip' })).toThrow(/TRUST_PROXY_HEADER="x-real-ip": must be x-forwarded-for or forwarded/);
  });
});
