import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has working defaults for development on the embedded emulator', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      mode: 'development',
      port: 4000,
      emulatorPort: 4010,
      campaignApiUrl: undefined,
      demoFallback: true,
      corsOrigins: ['https://studio.apollographql.com'],
    });
    expect(config.client).toEqual({
      connections: 256,
      attemptTimeoutMs: 3000,
      budgetMs: 8000,
      maxAttempts: 3,
      backoff: { initialMs: 100, maxMs: 1000 },
      breaker: { consecutiveFailures: 5, halfOpenAfterMs: 5000 },
      bulkhead: { maxConcurrent: 256, maxQueue: 10_000 },
      answerMemoBytes: 4 * 1024 * 1024,
    });
  });

  it('admits requests under overload by default; ADMISSION_CONTROL=false turns it off', () => {
    expect(loadConfig({}).limits.admissionControl).toBe(true);
    expect(loadConfig({ ADMISSION_CONTROL: 'false' }).limits.admissionControl).toBe(false);
    expect(() => loadConfig({ ADMISSION_CONTROL: 'sometimes' })).toThrow(/ADMISSION_CONTROL="sometimes": must be true or false/);
  });

  it('lets the old generation grow 100% past its live size by default; 0 leaves it to V8', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(100);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '400' })).toThrow(/HEAP_GROWTH_PERCENT="400": must be a whole number from 0 to 300/);
  });

  it('names the variable, the value and what is allowed', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty": must be a whole number from 0 to 65535/);
    expect(() => loadConfig({ CACHE_URL: 'http://x' })).toThrow(/CACHE_URL="http:\/\/x": must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL="loud": must be one of/);
  });

  it('takes a cursor secret of at least 32 characters, and never prints it', () => {
    expect(loadConfig({ CURSOR_SECRET: 's'.repeat(32) }).cursorSecret).toBe('s'.repeat(32));
    expect(loadConfig({}).cursorSecret).toBeUndefined();
    let message = '';
    try {
      loadConfig({ CURSOR_SECRET: 'short-secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/CURSOR_SECRET=\(hidden, 12 characters\): must be at least 32 characters/);
    expect(message).not.toContain('short-secret');
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: '-1', MAX_DEPTH: '0', CAMPAIGN_API_URL: 'ftp://x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((p) => p.split('=')[0])).toEqual(['PORT', 'CAMPAIGN_API_URL', 'MAX_DEPTH']);
    }
  });

  it('refuses production without a real backend, and hardens it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CAMPAIGN_API_URL is not set: production needs a real backend/);
    const config = loadConfig({ NODE_ENV: 'production', CAMPAIGN_API_URL: 'https://api.example.com/root/' });
    expect(config).toMatchObject({ mode: 'production', demoFallback: false, corsOrigins: [], campaignApiUrl: 'https://api.example.com/root' });
    expect(() => loadConfig({ NODE_ENV: 'production', CAMPAIGN_API_URL: 'https://a.example.com', DEMO_FALLBACK: 'true' })).toThrow(/DEMO_FALLBACK/);
  });

  it('refuses a production fleet on Redis without CURSOR_SECRET, naming it; development keeps such keys per instance', () => {
    const fleet = { NODE_ENV: 'production', CAMPAIGN_API_URL: 'https://api.example.com', CACHE_URL: 'redis://cache:6379' };
    expect(() => loadConfig(fleet)).toThrow(/CURSOR_SECRET is not set: with CACHE_URL the instances of a fleet name partners and apps in Redis .* by keyed hashes of CURSOR_SECRET/);
    expect(loadConfig({ ...fleet, CURSOR_SECRET: 's'.repeat(32) }).cursorSecret).toBe('s'.repeat(32));
    expect(loadConfig({ NODE_ENV: 'production', CAMPAIGN_API_URL: 'https://api.example.com' }).cursorSecret).toBeUndefined();
    expect(loadConfig({ CACHE_URL: 'redis://cache:6379' }).cacheUrl).toBe('redis://cache:6379');
  });

  it('takes explicit CORS origins and treats empty variables as unset', () => {
    const config = loadConfig({ CORS_ORIGINS: 'https://app.example.com, https://admin.example.com', PORT: '' });
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'https://admin.example.com']);
    expect(config.port).toBe(4000);
    expect(() => loadConfig({ CORS_ORIGINS: 'not an origin' })).toThrow(/CORS_ORIGINS/);
  });

  it('reads whole numbers in decimal digits only: no hexadecimal, exponent, sign or spaces', () => {
    expect(loadConfig({ PORT: '4001', SHUTDOWN_GRACE_MS: '0010000' })).toMatchObject({ port: 4001, shutdownGraceMs: 10_000 });
    for (const value of ['0x3e8', '1e4', '0b11', '0o17', ' 4001', '4001 ', '+4001', '4001.0', '1_000', 'Infinity']) {
      expect(() => loadConfig({ PORT: value }), value).toThrow(`PORT=${JSON.stringify(value)}: must be a whole number from 0 to 65535`);
    }
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '1e4' })).toThrow(/SHUTDOWN_GRACE_MS="1e4": must be a whole number from 0 to 600000/);
  });

  it('serves metrics on a port of their own, 9464 on HOST by default; METRICS_PORT=off turns them off', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(loadConfig({ HOST: '10.1.2.3' }).metrics).toEqual({ port: 9464, host: '10.1.2.3' });
    expect(loadConfig({ METRICS_PORT: '9100', METRICS_HOST: '127.0.0.1' }).metrics).toEqual({ port: 9100, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics).toBeUndefined();
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow(/METRICS_PORT="on": must be a port number from 0 to 65535, or off/);
    expect(() => loadConfig({ METRICS_PORT: '0x24e8' })).toThrow(/METRICS_PORT="0x24e8"/);
    expect(() => loadConfig({ PORT: '9464' })).toThrow(/METRICS_PORT=9464 must differ from PORT=9464/);
  });

  it('never prints the credentials of a URL in a configuration error', () => {
    const cases: Record<string, string>[] = [
      { CACHE_URL: 'http://cache-user:s3cret-pass@cache.internal:6379' },
      { CACHE_URL: 'redis://:s3cret-pass@cache.internal:63 79' },
      { CAMPAIGN_API_URL: 'ftp://api-user:s3cret-pass@api.example.com' },
      // Characters a URL parser misreads (and so refuses) still belong to the password.
      { CAMPAIGN_API_URL: 'https://api-user:s3cret-pass/#@api.example.com' },
      { CAMPAIGN_API_URL: 'https://api-user:s3cret-pass with space@api.example.com:99999' },
      { CORS_ORIGINS: 'https://someone:s3cret-pass@app.example.com, not an origin' },
    ];
    for (const env of cases) {
      let message = '';
      try {
        loadConfig(env);
      } catch (error) {
        message = (error as Error).message;
        expect((error as ConfigError).problems.join('\n')).not.toContain('s3cret');
      }
      expect(message, JSON.stringify(env)).toMatch(/\[redacted\]@/);
      expect(message).not.toContain('s3cret');
    }
    // Whoever wrote the problem: a check of this module, or another's (tracing, app keys).
    expect(new ConfigError(['OTEL_EXPORTER_OTLP_ENDPOINT="http://u:s3cret-pass@collector:4318": refused']).message).not.toContain('s3cret');
  });
});
