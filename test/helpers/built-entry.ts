import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { envSchema } from '../../src/config.js';
import { executorEnv } from './executor.js';
import { startCommand } from './start-command.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { nodeOptions, entry } = startCommand();

export interface BuiltEntryOptions {
  /**
   * Environment variables on top of PORT=0, METRICS_PORT=0, EMULATOR_PORT=0, HOST=127.0.0.1 and the
   * vitest project's executor (test/helpers/executor.ts). Neither the runner's NODE_ENV ("test"
   * under vitest) nor configuration variables from the shell reach the process: what is not given
   * here takes the product's default, as on a fresh machine.
   */
  env?: Record<string, string>;
  /** How long to wait for the banner; default 15 s. */
  startTimeoutMs?: number;
  /** The command to run instead of the start command (`node <its options> dist/src/main.js`), and where; for tests of the start commands themselves. */
  command?: { file: string; args: string[]; cwd?: string; detached?: boolean };
}

export interface BuiltEntry {
  /** The GraphQL endpoint from the banner, such as http://127.0.0.1:41234/graphql. */
  url: string;
  /** Where `/metrics` is served (its own listener), from the banner; undefined with METRICS_PORT=off. */
  metricsUrl?: string;
  /** The embedded emulator's base URL from the banner; undefined when CAMPAIGN_API_URL is set. */
  emulatorUrl?: string;
  /** Everything the process wrote so far, stdout and stderr interleaved as they arrived. */
  output(): string;
  /** What it wrote on standard output alone. */
  stdout(): string;
  /** The JSON log lines written so far, parsed (the banner and other text are left out). */
  logs(): Array<Record<string, any>>;
  child: ChildProcess;
  /** Settles when the process has exited and what it wrote is read: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process (SIGKILL) if it still runs and waits for it to go; for teardown. */
  stop(): Promise<void>;
}

/**
 * Starts the built process entry as the README says to run it (`node <options> dist/src/main.js`,
 * package.json's start command, which the image runs too) as a child process, and waits for its banner: text in development, the
 * JSON line `"msg":"started"` in production (so a production run needs LOG_LEVEL info or finer).
 * dist/ is built once per vitest run by test/helpers/build.global.ts.
 */
export async function startBuiltEntry(options: BuiltEntryOptions = {}): Promise<BuiltEntry> {
  if (!options.command && !existsSync(`${root}/${entry}`)) {
    throw new Error(`${entry} is missing: run \`node scripts/build.mjs\` (vitest's globalSetup test/helpers/build.global.ts does it)`);
  }
  const inherited = { ...process.env };
  for (const name of [...Object.keys(envSchema.shape), 'NODE_OPTIONS']) delete inherited[name];
  // OpenTelemetry's variables (read by src/config/tracing.ts) are configuration too.
  for (const name of Object.keys(inherited)) if (name.startsWith('VITEST') || name.startsWith('OTEL_')) delete inherited[name];

  const env: NodeJS.ProcessEnv = { ...inherited, PORT: '0', METRICS_PORT: '0', EMULATOR_PORT: '0', HOST: '127.0.0.1', ...executorEnv, ...options.env };
  if (env.NODE_ENV === 'production' && ['warn', 'error', 'fatal', 'silent'].includes(env.LOG_LEVEL ?? '')) {
    throw new Error(`in production the banner is a log line at info: LOG_LEVEL=${env.LOG_LEVEL} would hide it`);
  }
  const command = options.command ?? { file: process.execPath, args: [...nodeOptions, entry] };
  const child = spawn(command.file, command.args, {
    cwd: command.cwd ?? root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: command.detached ?? false,
  });
  let output = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Node reports the exit before it has read all the process wrote: the pipes close after. A
  // process the command started may hold them open longer; a second after the exit is then as
  // long as this waits.
  const pipes = [child.stdout!, child.stderr!].map((pipe) => new Promise((resolve) => (pipe.closed ? resolve(undefined) : pipe.once('close', resolve))));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  ).then(async (status) => {
    await Promise.race([Promise.all(pipes), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    return status;
  });

  const stop = async () => {
    if (command.detached) {
      // A command in a process group of its own is ended with the whole group, even once it has
      // exited itself: nothing it started outlives the test.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // No process left in the group.
      }
    } else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };

  // The banner is one write; its "cache" line is printed in every mode. In production, one JSON line.
  const banner = /^ {2}GraphQL +(http:\/\/\S+\/graphql)[\s\S]*^ {2}cache +\S/m;
  const startedLine = /^\{.*"msg":"started".*\}$/m;
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  const started = await new Promise<{ url: string; metricsUrl?: string; emulatorUrl?: string }>((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      void stop();
      reject(new Error(`${entry} ${why}; its output:\n${output}`));
    };
    const onData = () => {
      const text = banner.exec(stdout);
      if (text) {
        cleanup();
        const metricsUrl = /^ {2}metrics +(http:\/\/\S+\/metrics)/m.exec(stdout)?.[1];
        const emulatorUrl = /admin at (http:\/\/\S+?)\/_emulator\//.exec(stdout)?.[1];
        return resolve({ url: text[1]!, ...(metricsUrl ? { metricsUrl } : {}), ...(emulatorUrl ? { emulatorUrl } : {}) });
      }
      const line = startedLine.exec(stdout);
      if (line) {
        cleanup();
        const facts = JSON.parse(line[0]) as { graphql: string; metrics: string; backend: string };
        const emulatorUrl = /admin at (http:\/\/\S+?)\/_emulator\//.exec(facts.backend)?.[1];
        return resolve({
          url: facts.graphql,
          ...(facts.metrics.startsWith('http') ? { metricsUrl: facts.metrics } : {}),
          ...(emulatorUrl ? { emulatorUrl } : {}),
        });
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited (${signal ?? code}) before printing its banner`);
    const timer = setTimeout(() => fail(`printed no banner within ${timeoutMs} ms`), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });

  return {
    ...started,
    output: () => output,
    stdout: () => stdout,
    logs: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, any>];
          } catch {
            return [];
          }
        }),
    child,
    exited,
    stop,
  };
}
