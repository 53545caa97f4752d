import { join } from 'node:path';
import { expect } from 'vitest';
import { readYamlDocuments, type K8sObject } from '../helpers/kustomize.js';
import { root } from './support.js';

/**
 * The environment a rendered Deployment's container gets, as the kubelet builds it, for the tests
 * that hold the manifests (and the Compose file that mirrors the development overlay) to the
 * configuration the service accepts.
 */

export const secretTemplate = readYamlDocuments(join(root, 'deploy/kubernetes/base/secret.example.yaml')) as K8sObject[];

export const find = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  expect(found, `${kind} ${name}`).toBeDefined();
  return found as any;
};

/** A Secret's values by key, from `data` (base64) and `stringData`. */
export function secretValues(secret: any): Record<string, string> {
  const data = Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(String(value), 'base64').toString()]));
  return { ...data, ...(secret.stringData ?? {}) };
}

/** The Secret the BFF reads: the overlay's own, or (production) the template an operator fills in. */
export function secretFor(objects: K8sObject[], name: string): Record<string, string> {
  const secret = objects.find((object) => object.kind === 'Secret' && object.metadata.name === name) ?? secretTemplate.find((object) => object.metadata.name === name);
  expect(secret, `Secret ${name}`).toBeDefined();
  return secretValues(secret);
}

/** The environment the container gets, as the kubelet builds it: envFrom first, then env. */
export function environmentOf(objects: K8sObject[], container: any): { env: Record<string, string>; names: string[] } {
  const env: Record<string, string> = {};
  const names: string[] = [];
  for (const source of container.envFrom ?? []) {
    expect(source.prefix, 'envFrom with a prefix').toBeUndefined();
    const data = source.configMapRef
      ? (find(objects, 'ConfigMap', source.configMapRef.name).data as Record<string, string>)
      : secretFor(objects, source.secretRef.name);
    for (const [name, value] of Object.entries(data)) {
      env[name] = value;
      names.push(name);
    }
  }
  for (const entry of container.env ?? []) {
    names.push(entry.name);
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (entry.valueFrom?.secretKeyRef) {
      const { name, key } = entry.valueFrom.secretKeyRef;
      const value = secretFor(objects, name)[key];
      expect(value, `Secret ${name} key ${key}`).toBeDefined();
      env[entry.name] = value!;
    } else if (entry.valueFrom?.configMapKeyRef) {
      const { name, key } = entry.valueFrom.configMapKeyRef;
      env[entry.name] = find(objects, 'ConfigMap', name).data[key];
    } else throw new Error(`env ${entry.name}: only value, secretKeyRef and configMapKeyRef are read here`);
  }
  return { env, names };
}

