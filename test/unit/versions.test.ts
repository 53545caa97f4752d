import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { snapshotRelease } from '../../scripts/schema-compat.js';
import { BUILD_VERSION } from '../../src/observability/build.js';

/**
 * One version names a release everywhere a user meets one: package.json, which the process
 * reports as `bff_build_info{version}`; the image's label; the client kit's package; the schema
 * snapshot of the release; the Kubernetes manifests' image tag; and the changelog's latest release.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const { version } = JSON.parse(read('package.json')) as { version: string };

describe('the release version', () => {
  it('is a release number', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is what the process reports in bff_build_info', () => {
    expect(BUILD_VERSION).toBe(version);
    const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version: string }> };
    expect([lock.version, lock.packages['']!.version]).toEqual([version, version]);
  });

  it('is the client kit’s', () => {
    expect((JSON.parse(read('client/package.json')) as { version: string }).version).toBe(version);
  });

  it('is the image’s label, written in the Dockerfile rather than passed', () => {
    const dockerfile = DockerfileParser.parse(read('Dockerfile'));
    const labels = dockerfile
      .getInstructions()
      .filter((i) => i.getKeyword() === 'LABEL')
      .flatMap((i) => (i as unknown as { getProperties(): Array<{ getName(): string; getValue(): string | null }> }).getProperties());
    expect(labels.find((p) => p.getName() === 'org.opencontainers.image.version')?.getValue()).toBe(version);
    expect(dockerfile.getInstructions().filter((i) => i.getKeyword() === 'ARG').map((i) => i.getArgumentsContent())).not.toContainEqual(expect.stringMatching(/^VERSION\b/));
  });

  it('names the schema snapshot of the release', () => {
    expect(snapshotRelease(read('compat/schema.graphql'))).toBe(version);
  });

  it('is the image tag the Kubernetes manifests deploy', () => {
    const images: string[] = [];
    for (const file of ['deploy/kubernetes/base/deployment.yaml', 'deploy/kubernetes/overlays/development/emulator.yaml']) {
      for (const doc of parseAllDocuments(read(file))) {
        const containers = (doc.toJS() as { spec?: { template?: { spec?: { containers?: { image: string }[] } } } }).spec?.template?.spec?.containers ?? [];
        images.push(...containers.map((c) => c.image));
      }
    }
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toBe(`registry.example.com/campaign-bff:${version}`);
    const production = parseAllDocuments(read('deploy/kubernetes/overlays/production/kustomization.yaml'))[0]!.toJS() as { images: { name: string; newTag: string }[] };
    expect(production.images.find((i) => i.name === 'registry.example.com/campaign-bff')?.newTag).toBe(version);
  });

  it('is the changelog’s latest release, and every release there is dated, newest first', () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
    const releases = headings.map((heading) => /^(\d+\.\d+\.\d+) \((\d{4}-\d{2}-\d{2})\)$/.exec(heading));
    expect(releases.map((r, i) => (r ? 'dated' : headings[i]))).toEqual(headings.map(() => 'dated'));
    expect(releases[0]![1]).toBe(version);
    const dates = releases.map((r) => r![2]!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('has an Upgrading section for operators in every release after the first', () => {
    const sections = read('CHANGELOG.md').split(/^## /m).slice(1);
    for (const section of sections.slice(0, -1)) expect(section, section.split('\n')[0]).toMatch(/^### Upgrading$/m);
  });
});
