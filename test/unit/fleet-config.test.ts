import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/** The settings of running as a fleet behind a load balancer. */
describe('fleet configuration', () => {
  it('keeps the port open for SHUTDOWN_DELAY_MS after a stop signal: 6 s in production, none in development unless set', () => {
    const production = { NODE_ENV: 'production', CAMPAIGN_API_URL: 'https://partner-api.example.com' };
    expect(loadConfig(production).shutdownDelayMs).toBe(6000);
    expect(loadConfig({ ...production, SHUTDOWN_DELAY_MS: '0' }).shutdownDelayMs).toBe(0);
    expect(loadConfig({}).shutdownDelayMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '1500' }).shutdownDelayMs).toBe(1500);
    expect(() => loadConfig({ SHUTDOWN_DELAY_MS: '-1' })).toThrow(/SHUTDOWN_DELAY_MS="-1": must be a whole number from 0 to 600000/);
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
