import { describe, expect, it } from 'vitest';
import { localUrl, reachableHost } from '../../src/server/listen.js';
import { startStack } from '../helpers/stack.js';

describe('the address a listener is reached on from this machine', () => {
  it('is the loopback of the wildcard address\'s own family, any other address as it is', () => {
    expect(reachableHost('0.0.0.0')).toBe('127.0.0.1');
    expect(reachableHost('::')).toBe('::1');
    expect(reachableHost('127.0.0.2')).toBe('127.0.0.2');
    expect(reachableHost('localhost')).toBe('localhost');
  });

  it('is written in a URL with an IPv6 address in brackets', () => {
    expect(localUrl('0.0.0.0', 4000, '/graphql')).toBe('http://127.0.0.1:4000/graphql');
    expect(localUrl('::', 4000, '/graphql')).toBe('http://[::1]:4000/graphql');
    expect(localUrl('::1', 9464, '/metrics')).toBe('http://[::1]:9464/metrics');
    expect(localUrl('localhost', 9464, '/metrics')).toBe('http://localhost:9464/metrics');
  });

  it('gives URLs that answer for a service listening on every IPv6 address', async () => {
    const stack = await startStack({ env: { HOST: '::', METRICS_HOST: '::' } });
    try {
      expect(stack.bffUrl).toMatch(/^http:\/\/\[::1\]:\d+\/graphql$/);
      expect(stack.metricsUrl).toMatch(/^http:\/\/\[::1\]:\d+\/metrics$/);
      expect((await fetch(stack.bffUrl.replace('/graphql', '/healthz'))).status).toBe(200);
      expect((await fetch(stack.metricsUrl)).status).toBe(200);
    } finally {
      await stack.close();
    }
  });
});
