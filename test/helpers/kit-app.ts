import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * A team's app with the client kit installed as another repository installs it: `npm pack` of
 * client/ (its prepack builds it), the tarball unpacked into a fresh directory's
 * node_modules, the packages an app installs beside it linked from this repository's
 * node_modules, as npm would install them. The app then runs GraphQL Code Generator with the
 * kit's settings and bundles its own sources, as a team does.
 */
export const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const KIT = '@campaign-bff/client-kit';
/** The kit's dependencies and peers, and what an app installs beside it to run it and its codegen. */
const INSTALLED_WITH_IT = [
  '@graphql-typed-document-node/core',
  '@graphql-tools/documents',
  'tslib',
  '@apollo/client',
  'graphql',
  'graphql-ws',
  'rxjs',
  'ws',
  '@graphql-codegen/cli',
  '@graphql-codegen/client-preset',
];

export interface KitApp {
  /** The app's directory, with its package.json. */
  app: string;
  /** Where the kit is installed (`node_modules/@campaign-bff/client-kit`). */
  installed: string;
  /** The files the tarball holds. */
  packedFiles: string[];
  /** Writes files into the app, by path relative to it. */
  write(files: Record<string, string>): void;
  /** Runs GraphQL Code Generator in the app (its codegen.ts). */
  codegen(): Promise<void>;
  /** Runs the kit's `campaign-bff-manifest` command as npx would, in the app; its standard output. */
  manifest(...args: string[]): Promise<string>;
  /** Bundles one of the app's files with esbuild, for a browser or for Node; the bundle's text. */
  bundle(entry: string, platform: 'browser' | 'node'): Promise<string>;
  close(): void;
}

/** `also`: more packages the app installs from this repository's node_modules (React, Vite...). */
export async function installKitApp(options: { kitDir?: string; also?: string[] } = {}): Promise<KitApp> {
  const kitDir = options.kitDir ?? join(ROOT, 'client');
  const dir = mkdtempSync(join(tmpdir(), 'kit-app-'));
  // Packed from a copy: packing builds dist/ in place and removes it after, so two tests packing
  // client/ itself at once would take each other's build away.
  const source = join(dir, 'source');
  cpSync(kitDir, join(source, 'client'), { recursive: true, filter: (path) => !/[/\\](?:dist|node_modules)$/.test(path) });
  cpSync(join(ROOT, 'tsconfig.json'), join(source, 'tsconfig.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--json'], {
    cwd: join(source, 'client'),
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const app = join(dir, 'app');
  const installed = join(app, 'node_modules', KIT);
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(dir, packed!.filename), '-C', installed, '--strip-components=1']);
  for (const name of [...INSTALLED_WITH_IT, ...(options.also ?? [])]) {
    mkdirSync(dirname(join(app, 'node_modules', name)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name), 'dir');
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-team-app', private: true, type: 'module' }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(app, path)), { recursive: true });
      writeFileSync(join(app, path), text);
    }
  };
  return {
    app,
    installed,
    packedFiles: packed!.files.map((file) => file.path),
    write,
    async codegen() {
      await run(process.execPath, [join(app, 'node_modules/@graphql-codegen/cli/cjs/bin.js'), '--config', 'codegen.ts'], { cwd: app });
    },
    async manifest(...args) {
      const bin = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['campaign-bff-manifest']!;
      return (await run(process.execPath, [join(installed, bin), ...args], { cwd: app })).stdout;
    },
    async bundle(entry, platform) {
      const { build } = await import('esbuild');
      const result = await build({
        absWorkingDir: app,
        entryPoints: [entry],
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        target: 'es2022',
        ...(platform === 'browser' ? { define: { 'process.env.NODE_ENV': '"production"' }, conditions: ['production'] } : { packages: 'external' as const }),
        logLevel: 'warning',
      });
      return result.outputFiles[0]!.text;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The codegen.ts a team writes: the client preset with the kit's settings, over the kit's SDL. */
export const TEAM_CODEGEN = `import type { CodegenConfig } from '@graphql-codegen/cli';
import { config, documentTransforms, presetConfig } from '@campaign-bff/client-kit/codegen';

const codegen: CodegenConfig = {
  schema: 'node_modules/@campaign-bff/client-kit/schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**'],
  generates: { 'src/gql/': { preset: 'client', presetConfig, documentTransforms, config } },
};
export default codegen;
`;
