import { describe, expect, it } from 'vitest';
import { describeNearMiss, editDistance, KNOWN_VARIABLES, nearMisses } from '../../src/config-names.js';
import { envSchema } from '../../src/config.js';

/** What a shell, a container image, npm, CI and Kubernetes put in a process's environment. */
const ORDINARY_ENVIRONMENT = {
  PATH: '/usr/local/bin:/usr/bin',
  HOME: '/home/app',
  HOSTNAME: 'campaign-bff-7d9f',
  USER: 'app',
  LOGNAME: 'app',
  SHELL: '/bin/sh',
  TERM: 'xterm',
  LANG: 'C.UTF-8',
  PWD: '/app',
  OLDPWD: '/',
  SHLVL: '1',
  TZ: 'UTC',
  NODE_VERSION: '20.20.2',
  NODE_OPTIONS: '--max-old-space-size=512',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/ca.pem',
  YARN_VERSION: '1.22.22',
  npm_config_cache: '/home/app/.npm',
  npm_lifecycle_event: 'start',
  npm_package_name: 'campaign-graphql-bff',
  INIT_CWD: '/app',
  CI: 'true',
  APP_ENV: 'prod',
  APP_VERSION: '1.4.2',
  REDIS_URL: 'redis://cache:6379',
  DATABASE_URL: 'postgres://db/app',
  HTTP_PROXY: 'http://proxy:3128',
  NO_PROXY: 'localhost',
  KUBERNETES_SERVICE_HOST: '10.96.0.1',
  KUBERNETES_SERVICE_PORT: '443',
  KUBERNETES_SERVICE_PORT_HTTPS: '443',
  KUBERNETES_PORT: 'tcp://10.96.0.1:443',
  KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
  KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
  KUBERNETES_PORT_443_TCP_PORT: '443',
  KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
  // Services named like this service's setting families: Kubernetes links them into every pod.
  BACKEND_SERVICE_HOST: '10.96.3.4',
  BACKEND_SERVICE_PORT: '8080',
  BACKEND_PORT: 'tcp://10.96.3.4:8080',
  BACKEND_PORT_8080_TCP_ADDR: '10.96.3.4',
  FEED_PORT: 'tcp://10.96.3.5:80',
  METRICS_SERVICE_HOST: '10.96.3.6',
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://collector:4318/v1/metrics',
  OTEL_PROPAGATORS: 'tracecontext',
  OTEL_NODE_RESOURCE_DETECTORS: 'env',
};

describe('nearMisses', () => {
  it('says nothing about an ordinary environment, the test runner’s included', () => {
    expect(nearMisses(ORDINARY_ENVIRONMENT)).toEqual([]);
    expect(nearMisses(process.env)).toEqual([]);
  });

  it('names the setting a misspelt variable meant, by name only', () => {
    const env = {
      SHUTDOWN_GRACE: '5000',
      REQUEST_TIMEOUT: '5000',
      BODY_LIMIT: '1024',
      SHUTDOWN_GRACE_SECONDS: '5',
      port: '4000',
      LOGLEVEL: 'debug',
      MAX_DEPHT: '3',
      CACHE_URI: 'redis://cache:6379',
      CORS_ORIGIN: 'https://app.example.com',
      METRIC_PORT: '9100',
      OTEL_SERVICE_NAM: 'bff',
      BACKEND_TIMEOUT_MS: '100',
      FEED_MAX_AGE_S: '10',
    };
    expect(Object.fromEntries(nearMisses({ ...ORDINARY_ENVIRONMENT, ...env }).map((m) => [m.name, [m.meant, m.how]]))).toEqual({
      SHUTDOWN_GRACE: ['SHUTDOWN_GRACE_MS', 'unit'],
      REQUEST_TIMEOUT: ['REQUEST_TIMEOUT_MS', 'unit'],
      BODY_LIMIT: ['BODY_LIMIT_BYTES', 'unit'],
      SHUTDOWN_GRACE_SECONDS: ['SHUTDOWN_GRACE_MS', 'unit'],
      port: ['PORT', 'case'],
      LOGLEVEL: ['LOG_LEVEL', 'spelling'],
      MAX_DEPHT: ['MAX_DEPTH', 'spelling'],
      CACHE_URI: ['CACHE_URL', 'spelling'],
      CORS_ORIGIN: ['CORS_ORIGINS', 'spelling'],
      METRIC_PORT: ['METRICS_PORT', 'spelling'],
      OTEL_SERVICE_NAM: ['OTEL_SERVICE_NAME', 'spelling'],
      BACKEND_TIMEOUT_MS: [expect.stringMatching(/^BACKEND_/), 'family'],
      FEED_MAX_AGE_S: [expect.stringMatching(/^FEED_/), 'family'],
    });
    const [miss] = nearMisses({ SHUTDOWN_GRACE: 'a-secret-looking-value' });
    expect(describeNearMiss(miss!)).toBe('SHUTDOWN_GRACE is not a setting of this service and is ignored: did you mean SHUTDOWN_GRACE_MS?');
    expect(describeNearMiss(nearMisses({ BACKEND_TIMEOUT_MS: '1' })[0]!)).toMatch(/^BACKEND_TIMEOUT_MS is not a setting of this service and is ignored: no BACKEND_ variable has that name \(the closest is BACKEND_\w+\)$/);
  });

  it('knows every variable of the configuration', () => {
    for (const name of Object.keys(envSchema.shape)) expect(KNOWN_VARIABLES.has(name)).toBe(true);
    expect(nearMisses(Object.fromEntries(Object.keys(envSchema.shape).map((name) => [name, 'x'])))).toEqual([]);
  });

  it('measures edits with transpositions', () => {
    expect(editDistance('SHUTDWON', 'SHUTDOWN')).toBe(1);
    expect(editDistance('HOME', 'HOST')).toBe(2);
    expect(editDistance('PORT', 'PORT')).toBe(0);
    expect(editDistance('ABCDEFGH', 'ZYXWVUTS', 2)).toBe(3);
  });
});
