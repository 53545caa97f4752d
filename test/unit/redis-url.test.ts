import { describe, expect, it } from 'vitest';
import { parseRedisUrl, redisUrlProblem } from '../../src/cache/redis-url.js';
import { loadConfig } from '../../src/config.js';

describe('CACHE_URL forms', () => {
  it('passes one server\'s redis:// and rediss:// URLs on whole', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379')).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' });
    expect(parseRedisUrl('rediss://u:p@cache:6380/2')).toEqual({ kind: 'single', url: 'rediss://u:p@cache:6380/2' });
  });

  it('reads a Sentinel group: its Sentinels, the master name, credentials and database', () => {
    expect(parseRedisUrl('redis+sentinel://s1:26379,s2,[::1]:26380/mymaster')).toEqual({
      kind: 'sentinel',
      masterName: 'mymaster',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
    });
    expect(parseRedisUrl('redis+sentinel://:p%40ss@10.0.0.1:26379,10.0.0.2:26379/cache-master/3')).toEqual({
      kind: 'sentinel',
      masterName: 'cache-master',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '10.0.0.2', port: 26379 },
      ],
      password: 'p@ss',
      database: 3,
    });
    // A password may hold an unencoded "@": the user info runs to the last one.
    expect(parseRedisUrl('redis+sentinel://bff:a@b@s1/m')).toMatchObject({ username: 'bff', password: 'a@b', sentinels: [{ host: 's1', port: 26379 }] });
  });

  it('reads a Cluster: its seed nodes and credentials', () => {
    expect(parseRedisUrl('redis+cluster://n1:7000,n2:7001,n3')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
        { host: 'n3', port: 6379 },
      ],
    });
    expect(parseRedisUrl('redis+cluster://bff:pw@n1:7000/')).toMatchObject({ username: 'bff', password: 'pw' });
  });

  it('refuses what it cannot read, saying what is wrong in words that quote no credentials', () => {
    const problems: [string, RegExp][] = [
      ['redis+sentinel://:s3cret@s1,s2', /names no master/],
      ['redis+sentinel://:s3cret@/mymaster', /names no Sentinel/],
      ['redis+sentinel://:s3cret@s1,,s2/m', /empty host/],
      ['redis+sentinel://:s3cret@s1:99999/m', /"s1:99999" among its hosts: a port is from 1 to 65535/],
      ['redis+sentinel://:s3cret@s1/m/zero', /"zero" after the master name: that is the database/],
      ['redis+sentinel://:s3cret@s1/m/1/2', /more after the master name/],
      ['redis+sentinel://:s3cret@s1/m?db=1', /has a query/],
      ['redis+sentinel://:s3cret@s1/m#x', /fragment/],
      ['redis+sentinel://:s3cr%et@s1/m', /stray "%"/],
      ['redis+cluster://:s3cret@n1,n2/1', /a Cluster has only database 0/],
      ['redis+cluster://:s3cret@n1 n2', /"n1 n2" among its hosts/],
      ['rediss+cluster://:s3cret@n1', /TLS\) are not supported/],
      ['memcached://:s3cret@n1', /must be a redis:\/\/ or rediss:\/\/ URL \(one server\), redis\+sentinel:\/\/.* or redis\+cluster:\/\//],
    ];
    for (const [url, problem] of problems) {
      expect(redisUrlProblem(url), url).toMatch(problem);
      expect(redisUrlProblem(url)).not.toContain('s3cr');
    }
    expect(redisUrlProblem(`redis+cluster://${Array.from({ length: 65 }, (_, i) => `n${i}`).join(',')}`)).toMatch(/lists 65 hosts: at most 64/);
  });

  it('is checked with the configuration, and the credentials stay out of its errors', () => {
    expect(loadConfig({ CACHE_URL: 'redis+sentinel://:pw@s1:26379,s2:26379/mymaster' }).cacheUrl).toBe('redis+sentinel://:pw@s1:26379,s2:26379/mymaster');
    expect(loadConfig({ CACHE_URL: 'redis+cluster://n1:7000,n2:7001' }).cacheUrl).toBe('redis+cluster://n1:7000,n2:7001');
    for (const value of ['redis+sentinel://:s3cret-pass@s1:26379', 'redis+cluster://u:s3cret-pass@n1/0', 'redis://:s3cret-pass@cache:63 79']) {
      let message = '';
      try {
        loadConfig({ CACHE_URL: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, value).toMatch(/CACHE_URL="redis(\+sentinel|\+cluster)?:\/\/\[redacted\]@/);
      expect(message).not.toContain('s3cret');
    }
  });
});
