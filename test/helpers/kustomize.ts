import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * Renders a kustomization directory as `kubectl kustomize` does, for the part of kustomize that
 * deploy/kubernetes/ uses: `resources` (files, and directories holding a kustomization),
 * `patches` given by `path` (strategic merge patches, each naming its target by kind and name)
 * and `images`. Any other field is refused, so a kustomization that starts using one fails the
 * test instead of being rendered wrongly.
 *
 * Why not kubectl itself: the only kubectl in Debian's packages (kubernetes-client 1.20) embeds
 * kustomize 2.0.3, which knows neither directories in `resources` nor `patches`, the fields
 * kustomize has asked for since v3 (v5 warns on the old `bases` and `patchesStrategicMerge`).
 * Where a kubectl with kustomize 4 or later is on the PATH, test/deploy/kubernetes.test.ts also
 * renders with it and requires the same objects.
 */

export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; [key: string]: unknown }; [key: string]: unknown };

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'patches', 'images']);

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  patches?: Array<{ path: string }>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
}

/** Every document of a YAML file, empty ones left out. */
export function readYamlDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return doc.toJS() as unknown;
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

export function renderKustomization(dir: string): K8sObject[] {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((name) => join(dir, name)).find((path) => existsSync(path));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const [k] = readYamlDocuments(file) as [Kustomization];
  const unknown = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unknown.length > 0) throw new Error(`${file}: this renderer does not support ${unknown.join(', ')}`);
  if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization') throw new Error(`${file}: not a kustomize.config.k8s.io/v1beta1 Kustomization`);

  const objects: K8sObject[] = [];
  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    if (statSync(path).isDirectory()) objects.push(...renderKustomization(path));
    else objects.push(...(readYamlDocuments(path) as K8sObject[]));
  }
  const ids = objects.map(id);
  const duplicate = ids.find((value, i) => ids.indexOf(value) !== i);
  if (duplicate) throw new Error(`${file}: ${duplicate} appears twice`);

  for (const patch of k.patches ?? []) {
    const keys = Object.keys(patch);
    if (keys.length !== 1 || keys[0] !== 'path') throw new Error(`${file}: only patches given by path are supported, not ${keys.join(', ')}`);
    for (const doc of readYamlDocuments(resolve(dir, patch.path)) as K8sObject[]) {
      const index = objects.findIndex((object) => id(object) === id(doc));
      if (index === -1) throw new Error(`${file}: patch ${patch.path} targets ${id(doc)}, which no resource is`);
      objects[index] = strategicMerge(objects[index], doc, []) as K8sObject;
    }
  }

  for (const image of k.images ?? []) {
    for (const container of objects.flatMap(containersOf)) {
      const { name, tag, digest } = splitImage(container.image);
      if (name !== image.name) continue;
      const newName = image.newName ?? name;
      if (image.digest) container.image = `${newName}@${image.digest}`;
      else if (image.newTag !== undefined) container.image = `${newName}:${image.newTag}`;
      else container.image = `${newName}${digest ? `@${digest}` : tag ? `:${tag}` : ''}`;
    }
  }
  return objects;
}

/** kind/name, with the API group: how kustomize tells resources apart within one namespace. */
export function id(object: K8sObject): string {
  const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '';
  return `${group ? `${group}/` : ''}${object.kind}/${object.metadata.name}`;
}

/** The containers of a workload's pod template (or a pod), to be changed in place. */
export function containersOf(object: K8sObject): Array<{ name: string; image: string; [key: string]: unknown }> {
  const spec = (object.kind === 'Pod' ? object.spec : (object.spec as any)?.template?.spec) as any;
  if (!spec) return [];
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  if (at !== -1) return { name: image.slice(0, at), digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  // A colon before the last slash belongs to a registry's port, not to a tag.
  if (colon > image.lastIndexOf('/')) return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image };
}

/**
 * The lists Kubernetes merges by a key in a strategic merge patch (its `patchMergeKey`), by the
 * field's name; every other list is replaced whole, as Kubernetes does for a list without one.
 */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

/**
 * A strategic merge patch of `base` by `patch`: maps merge key by key, `null` removes a key,
 * lists named in MERGE_KEYS merge item by item on their key (items the base lacks are added),
 * other lists and scalars are replaced. `$patch` directives are refused.
 */
export function strategicMerge(base: unknown, patch: unknown, path: string[]): unknown {
  if (isMap(patch)) {
    if ('$patch' in patch || Object.keys(patch).some((key) => key.startsWith('$'))) throw new Error(`${path.join('.')}: $ directives are not supported`);
    const result: Record<string, unknown> = isMap(base) ? { ...base } : {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete result[key];
      else result[key] = strategicMerge(result[key], value, [...path, key]);
    }
    return result;
  }
  if (Array.isArray(patch)) {
    const key = MERGE_KEYS[path.at(-1) ?? ''];
    if (!key || !Array.isArray(base)) return patch;
    const result = [...base];
    for (const item of patch) {
      if (!isMap(item) || item[key] === undefined) throw new Error(`${path.join('.')}: an item without its merge key ${key}`);
      const index = result.findIndex((existing) => isMap(existing) && existing[key] === item[key]);
      if (index === -1) result.push(item);
      else result[index] = strategicMerge(result[index], item, [...path, String(item[key])]);
    }
    return result;
  }
  return patch;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
