import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseAppKeys } from '../../src/apps/app-keys.js';
import { loadTrustedDocuments } from '../../src/pipeline/trusted-documents.js';
import { KNOWN_VARIABLES } from '../../src/config-names.js';
import { loadConfig } from '../../src/config.js';
import { containersOf, id, renderKustomization, strategicMerge, type K8sObject } from '../helpers/kustomize.js';
import { environmentOf, find, secretFor, secretTemplate, secretValues } from './pod-environment.js';
import { SHUTDOWN_MARGIN_MS, TRACING_FLUSH_MS } from './support.js';

/**
 * deploy/kubernetes/: each overlay rendered, every object checked against the Kubernetes API's
 * schemas (kubernetes-models) with no field they do not know, and the BFF's Deployment, Services,
 * autoscaler and disruption budget held to the rules the service needs: probes on the endpoints
 * that mean liveness and readiness, a locked-down security context, a grace period that covers
 * the shutdown the configuration asks for, the metrics port kept off the API Service, and a
 * configuration the service itself accepts.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const kubernetes = join(root, 'deploy/kubernetes');
const OVERLAYS = ['development', 'production'] as const;
const APP = 'campaign-bff';

/**
 * How long, after a pod starts terminating, kube-proxy, ingress controllers and cloud load
 * balancers may still send it new requests; the pod must keep serving that long.
 */
const DEREGISTRATION_MS = 5000;

const rendered = Object.fromEntries(OVERLAYS.map((overlay) => [overlay, renderKustomization(join(kubernetes, 'overlays', overlay))])) as Record<
  (typeof OVERLAYS)[number],
  K8sObject[]
>;
const podSpecOf = (deployment: any) => deployment.spec.template.spec;
const bffContainer = (deployment: any) => podSpecOf(deployment).containers.find((c: any) => c.name === APP);
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

/**
 * Fields the schema does not know: Kubernetes' OpenAPI schemas leave unknown fields alone (the
 * API server drops them, or refuses them under strict field validation), so a misspelt
 * `readinesProbe` would pass a plain validation. The validator reads each field it knows, and
 * lists a map's keys only where any key is allowed (labels, ConfigMap data): a key it never read
 * is one it does not know.
 */
function unknownFields(validate: (this: unknown) => void, object: unknown): string[] {
  const records = new Map<object, { path: string; read: Set<string>; listed: boolean; proxy: object }>();
  const track = (value: unknown, path: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const existing = records.get(value);
    if (existing) return existing.proxy;
    const record = { path, read: new Set<string>(), listed: false, proxy: {} as object };
    record.proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key !== 'string') return Reflect.get(target, key, receiver);
        record.read.add(key);
        const child = Reflect.get(target, key, receiver);
        return Object.hasOwn(target, key) ? track(child, `${path}.${key}`) : child;
      },
      has(target, key) {
        if (typeof key === 'string') record.read.add(key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        record.listed = true;
        return Reflect.ownKeys(target);
      },
    });
    records.set(value, record);
    return record.proxy;
  };
  validate.call(track(object, ''));
  return [...records.entries()].flatMap(([value, record]) =>
    Array.isArray(value) || record.listed ? [] : Object.keys(value).filter((key) => !record.read.has(key)).map((key) => `${record.path}.${key}`.slice(1)),
  );
}

/** Checks an object against the schema of its apiVersion and kind; resolves to the fields the schema does not know. */
async function validateObject(object: K8sObject): Promise<string[]> {
  // kubernetes-models has a module per API group and version (`v1` for the core group).
  const models = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[object.kind];
  expect(Model, `${object.apiVersion} ${object.kind} is a kind of the Kubernetes API`).toBeDefined();
  new Model!(object).validate();
  return unknownFields(Model!.prototype.validate, object);
}

/** `kubectl kustomize`, where a kubectl whose kustomize reads the current fields (v4 or later) is installed. */
function kubectlKustomize(dir: string): K8sObject[] | undefined {
  const version = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  const kustomize = /Kustomize Version: v(\d+)\./.exec(version.stdout ?? '');
  if (version.status !== 0 || !kustomize || Number(kustomize[1]) < 4) return undefined;
  const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir}: ${run.stderr}`);
  return parseAllDocuments(run.stdout).map((doc) => doc.toJS() as K8sObject);
}

describe('the renderer of the kustomizations', () => {
  it('merges a strategic merge patch as Kubernetes does', () => {
    const base = {
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }], args: ['--one'] },
              { name: 'b', image: 'b:1' },
            ],
          },
        },
      },
      data: { KEEP: 'k', DROP: 'd' },
    };
    const patch = {
      spec: { template: { spec: { containers: [{ name: 'a', env: [{ name: 'Y', value: '3' }, { name: 'Z', value: '4' }], args: ['--two'] }, { name: 'c', image: 'c:1' }] } } },
      data: { DROP: null, NEW: 'n' },
    };
    expect(strategicMerge(base, patch, [])).toEqual({
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              // Merged on the key; a list without one (args) is replaced.
              { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '3' }, { name: 'Z', value: '4' }], args: ['--two'] },
              { name: 'b', image: 'b:1' },
              { name: 'c', image: 'c:1' },
            ],
          },
        },
      },
      data: { KEEP: 'k', NEW: 'n' },
    });
    expect(() => strategicMerge(base, { spec: { $patch: 'replace' } }, [])).toThrow(/directives/);
  });

  it('refuses what it does not render: other fields, patches of no resource', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    try {
      writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  K: v\n');
      writeFileSync(join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\nnamePrefix: x-\n');
      expect(() => renderKustomization(dir)).toThrow(/does not support namePrefix/);
      writeFileSync(join(dir, 'patch.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  K: w\n');
      writeFileSync(join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\npatches:\n  - path: patch.yaml\n');
      expect(() => renderKustomization(dir)).toThrow(/targets ConfigMap\/b, which no resource is/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(OVERLAYS)('renders %s as kubectl kustomize does, where kubectl is installed', (overlay) => {
    const theirs = kubectlKustomize(join(kubernetes, 'overlays', overlay));
    const byId = (objects: K8sObject[]) => Object.fromEntries(objects.map((object) => [id(object), object]));
    // Without a kubectl of kustomize 4 or later, the renderer's own tests above stand for it.
    if (theirs) expect(byId(rendered[overlay])).toEqual(byId(theirs));
    expect(rendered[overlay].length).toBeGreaterThan(0);
  });
});

describe.each(OVERLAYS)('deploy/kubernetes/overlays/%s', (overlay) => {
  const objects = rendered[overlay];
  const deployment = find(objects, 'Deployment', APP);
  const pod = podSpecOf(deployment);
  const container = bffContainer(deployment);
  const podLabels = deployment.spec.template.metadata.labels as Record<string, string>;
  const { env, names } = environmentOf(objects, container);
  const ports = Object.fromEntries((container.ports as any[]).map((port) => [port.name, port.containerPort])) as Record<string, number>;

  it('is valid against the Kubernetes schemas, with no field they do not know', async () => {
    for (const object of objects) expect(await validateObject(object), id(object)).toEqual([]);
  });

  it('gives the service a configuration it accepts, of known variables only', () => {
    for (const name of names) expect(KNOWN_VARIABLES.has(name), `${name} is a variable the service reads`).toBe(true);
    expect(new Set(names).size, 'no variable set twice').toBe(names.length);
    const config = loadConfig(env);
    expect(config.mode).toBe('production');
    expect(config.cursorSecret, 'CURSOR_SECRET: the same on every pod').toBeDefined();
    expect(config.cacheUrl, 'CACHE_URL: the fleet shares Redis').toBeDefined();
    // The Secret's values come from the Secret, never from the ConfigMap.
    const configMaps = (container.envFrom ?? []).filter((source: any) => source.configMapRef).map((source: any) => find(objects, 'ConfigMap', source.configMapRef.name));
    for (const cm of configMaps) for (const secret of ['CURSOR_SECRET', 'CACHE_URL']) expect(cm.data[secret], `${secret} in ConfigMap ${cm.metadata.name}`).toBeUndefined();
  });

  it('names its ports as the configuration does, and probes liveness and readiness on the API port', () => {
    const config = loadConfig(env);
    expect(ports).toEqual({ http: config.port, metrics: config.metrics!.port });
    const probe = (name: string) => {
      const p = container[name];
      expect(p?.httpGet, name).toBeDefined();
      expect(p.httpGet.port, `${name} on the API port`).toBe('http');
      return p.httpGet.path;
    };
    expect(probe('startupProbe')).toBe('/healthz');
    expect(probe('livenessProbe')).toBe('/healthz');
    expect(probe('readinessProbe')).toBe('/readyz');
    // A busy event loop answers late: restarting the pod would move its load to the others.
    expect(container.livenessProbe.timeoutSeconds * container.livenessProbe.failureThreshold).toBeGreaterThanOrEqual(10);
    const annotations = deployment.spec.template.metadata.annotations;
    expect(annotations['prometheus.io/port']).toBe(String(ports.metrics));
    expect(annotations['prometheus.io/path']).toBe('/metrics');
  });

  it('runs locked down: non-root, read-only root filesystem, no privilege escalation, no capabilities, RuntimeDefault seccomp', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(container.securityContext.privileged ?? false).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.hostNetwork ?? false).toBe(false);
  });

  it('sets enableServiceLinks to false, so no Service injects METRICS_PORT=tcp://…', () => {
    expect(pod.enableServiceLinks).toBe(false);
  });

  it('requests and limits CPU and memory', () => {
    const { requests, limits } = container.resources;
    for (const resource of ['cpu', 'memory']) {
      expect(requests[resource], `requests.${resource}`).toBeDefined();
      expect(limits[resource], `limits.${resource}`).toBeDefined();
    }
    expect(quantity(requests.cpu)).toBeLessThanOrEqual(quantity(limits.cpu));
    expect(quantity(requests.memory)).toBeLessThanOrEqual(quantity(limits.memory));
    // What the bench measured at rest and under 50 busy clients (docs/performance.md) fits the limit.
    expect(quantity(limits.memory)).toBeGreaterThanOrEqual(256 * 2 ** 20);
  });

  it('gives the pod the time its configured shutdown takes, and keeps serving while it is deregistered', () => {
    const config = loadConfig(env);
    const preStop = container.lifecycle?.preStop;
    // Only a sleep: the service itself keeps serving after SIGTERM.
    if (preStop) expect(Object.keys(preStop)).toEqual(['sleep']);
    const preStopMs = preStop ? preStop.sleep.seconds * 1000 : 0;
    const graceMs = (pod.terminationGracePeriodSeconds ?? 30) * 1000;
    expect(graceMs).toBeGreaterThanOrEqual(preStopMs + config.shutdownDelayMs + config.shutdownGraceMs + TRACING_FLUSH_MS + SHUTDOWN_MARGIN_MS);
    expect(preStopMs + config.shutdownDelayMs).toBeGreaterThanOrEqual(DEREGISTRATION_MS);
  });

  it('mounts the app keys from the Secret as a directory (re-read on change) and the trusted documents from their ConfigMap', () => {
    const mountOf = (file: string) => {
      const mount = (container.volumeMounts as any[]).find((m) => file.startsWith(`${m.mountPath}/`));
      expect(mount, `a volume mounted above ${file}`).toBeDefined();
      // subPath mounts are never updated by Kubernetes.
      expect(mount.subPath).toBeUndefined();
      expect(mount.readOnly).toBe(true);
      const volume = (pod.volumes as any[]).find((v) => v.name === mount.name);
      return { volume, key: posix.relative(mount.mountPath, file) };
    };
    const keys = mountOf(env.APP_KEYS_FILE!);
    expect(keys.volume.secret.secretName).toBe('campaign-bff-secrets');
    const item = (keys.volume.secret.items as any[]).find((i) => i.path === keys.key);
    expect(item, `Secret item for ${keys.key}`).toBeDefined();
    const appKeys = parseAppKeys(secretFor(objects, 'campaign-bff-secrets')[item.key]!);
    expect(appKeys.size).toBeGreaterThan(0);

    const documents = mountOf(env.TRUSTED_DOCUMENTS!);
    const manifest = find(objects, 'ConfigMap', documents.volume.configMap.name).data[documents.key] as string;
    // The front-end kit's manifest, which the service accepts.
    expect(JSON.parse(manifest)).toEqual(JSON.parse(readFileSync(join(root, 'client/src/gql/persisted-documents.json'), 'utf8')));
    const dir = mkdtempSync(join(tmpdir(), 'trusted-'));
    try {
      writeFileSync(join(dir, 'manifest.json'), manifest);
      expect(loadTrustedDocuments(join(dir, 'manifest.json')).size).toBe(Object.keys(JSON.parse(manifest)).length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The rest of the root filesystem is read-only: /tmp is a volume.
    expect((container.volumeMounts as any[]).map((m) => m.mountPath)).toContain('/tmp');
  });

  it('routes only the API port through the API Service, and the metrics port through a headless Service of its own', () => {
    const services = objects.filter((object) => object.kind === 'Service' && matches((object as any).spec.selector ?? {}, podLabels)) as any[];
    const api = find(services, 'Service', APP);
    const metrics = find(services, 'Service', `${APP}-metrics`);
    expect(services).toHaveLength(2);
    const targets = (service: any) => (service.spec.ports as any[]).map((port) => port.targetPort);
    expect(targets(api)).toEqual(['http']);
    expect(targets(metrics)).toEqual(['metrics']);
    expect(metrics.spec.clusterIP).toBe('None');
    // Names that service links would turn into one of the service's variables (with links on).
    for (const service of objects.filter((object) => object.kind === 'Service')) {
      const prefix = service.metadata.name.toUpperCase().replace(/-/g, '_');
      expect(KNOWN_VARIABLES.has(`${prefix}_PORT`), `Service ${service.metadata.name}`).toBe(false);
    }
  });

  it('scales on CPU and limits disruptions, both aimed at the Deployment and its pods', () => {
    expect(matches(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
    const hpa = find(objects, 'HorizontalPodAutoscaler', APP);
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: APP });
    expect(hpa.spec.metrics).toContainEqual({ type: 'Resource', resource: { name: 'cpu', target: expect.objectContaining({ type: 'Utilization' }) } });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
    // The autoscaler owns the count: a replicas field would reset it at every apply.
    expect(deployment.spec.replicas).toBeUndefined();
    // Utilization is relative to the request.
    expect(container.resources.requests.cpu).toBeDefined();

    const pdb = find(objects, 'PodDisruptionBudget', APP);
    expect(pdb.apiVersion).toBe('policy/v1');
    expect(matches(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
    // A drain can always proceed, one pod at a time, and leaves at least one serving.
    if (pdb.spec.maxUnavailable !== undefined) expect(pdb.spec.maxUnavailable).toBe(1);
    else expect(pdb.spec.minAvailable).toBeLessThan(hpa.spec.minReplicas);

    // A rollout never lowers capacity.
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('spreads its pods across nodes', () => {
    const spread = (pod.topologySpreadConstraints ?? []) as any[];
    const byNode = spread.find((constraint) => constraint.topologyKey === 'kubernetes.io/hostname');
    expect(byNode, 'a topology spread constraint over nodes').toBeDefined();
    expect(matches(byNode.labelSelector.matchLabels, podLabels)).toBe(true);
  });

  it('runs an image of a fixed release, never :latest', () => {
    const images = objects.flatMap(containersOf).map((c) => c.image);
    for (const image of images) expect(image).toMatch(/(:[\w][\w.-]*|@sha256:[0-9a-f]{64})$/);
    for (const image of images) expect(image.endsWith(':latest')).toBe(false);
  });
});

describe('the production overlay', () => {
  const objects = rendered.production;

  it('creates no Secret: the real one is made once, outside the repository', () => {
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    expect(objects.map((object) => object.metadata.name)).not.toContain('redis');
  });

  it('keeps a template of the Secret with placeholders only, holding every key the Deployment reads', async () => {
    const [template] = secretTemplate;
    expect(await validateObject(template!)).toEqual([]);
    const values = secretValues(template);
    for (const [key, value] of Object.entries(values)) expect(value, key).toContain('REPLACE');
    for (const [key, app] of parseAppKeys(values['app-keys.json']!)) {
      expect(key).toContain('REPLACE');
      for (const token of app.partnerTokens) expect(token).toContain('REPLACE');
    }
    const container = bffContainer(find(objects, 'Deployment', APP));
    const pod = podSpecOf(find(objects, 'Deployment', APP));
    const wanted = [
      ...(container.env as any[]).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.valueFrom.secretKeyRef.key),
      ...(pod.volumes as any[]).filter((v) => v.secret).flatMap((v) => v.secret.items.map((i: any) => i.key)),
    ];
    expect(Object.keys(values).sort()).toEqual([...new Set(wanted)].sort());
  });

  it('runs at least three pods, with a full core each', () => {
    expect(find(objects, 'HorizontalPodAutoscaler', APP).spec.minReplicas).toBeGreaterThanOrEqual(3);
    expect(quantity(bffContainer(find(objects, 'Deployment', APP)).resources.requests.cpu)).toBeGreaterThanOrEqual(1);
  });
});

describe('the development overlay', () => {
  const objects = rendered.development;

  it('runs one Redis and the emulator, where the configuration points', () => {
    const deployment = find(objects, 'Deployment', APP);
    const { env } = environmentOf(objects, bffContainer(deployment));
    const reachable = (url: string) => {
      const { hostname, port } = new URL(url);
      const service = find(objects, 'Service', hostname);
      expect((service.spec.ports as any[]).map((p) => String(p.port))).toContain(port);
      const workload = objects.find((object) => object.kind === 'Deployment' && matches(service.spec.selector, (object as any).spec.template.metadata.labels)) as any;
      expect(workload, `a Deployment behind Service ${hostname}`).toBeDefined();
      return workload;
    };
    const redis = reachable(env.CACHE_URL!);
    expect(redis.spec.replicas).toBe(1);
    expect(containersOf(redis)[0]!.image).toMatch(/^redis:/);
    const emulator = reachable(env.CAMPAIGN_API_URL!);
    // The emulator is the same image as the BFF.
    expect(containersOf(emulator)[0]!.image).toBe(bffContainer(deployment).image);
    for (const workload of [redis, emulator]) {
      expect(podSpecOf(workload).enableServiceLinks).toBe(false);
      expect(podSpecOf(workload).securityContext.runAsNonRoot).toBe(true);
    }
  });
});

/** A Kubernetes quantity (`500m`, `2`, `256Mi`, `1G`) as a number. */
function quantity(text: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(text));
  if (!match) throw new Error(`not a quantity: ${text}`);
  const factor: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(match[1]) * (match[2] ? factor[match[2]]! : 1);
}
