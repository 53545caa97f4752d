import { z } from 'zod';
import { redactUrlValue } from './observability/failures.js';
import { apps } from './config/apps.js';
import { backend } from './config/backend.js';
import { cache } from './config/cache.js';
import { ConfigError } from './config/error.js';
import { limits } from './config/limits.js';
import { live } from './config/live.js';
import { removedSettingsIn, type RemovedSettingsFound } from './config/removed.js';
import { runtime } from './config/runtime.js';
import { server } from './config/server.js';
import { settingDocs, type Context } from './config/setting.js';
import { tracing } from './config/tracing.js';

/**
 * The whole configuration, read once from environment variables: one section per concern
 * (src/config/), each variable described where it is declared, the reference
 * (docs/configuration.md) generated from the same sections. A bad value stops start-up with a
 * message that names the variable, the value received and what is allowed.
 */

export { ConfigError };

/** The sections in the order of the reference (and of the schema). */
export const SECTIONS: ReadonlyArray<{ title: string; about: string; shape: Readonly<Record<string, z.ZodType>> }> = [server, backend, limits, cache, live, apps, tracing, runtime];

/** Each variable with its default; the keys are the environment variable names. */
export const envSchema = z.object({
  ...server.shape,
  ...backend.shape,
  ...limits.shape,
  ...cache.shape,
  ...live.shape,
  ...apps.shape,
  ...tracing.shape,
  ...runtime.shape,
});

export type Env = z.infer<typeof envSchema>;

export type Config = ReturnType<typeof assemble> & { ignoredSettings: RemovedSettingsFound['ignored'] };
export type AppsConfig = Config['apps'];

function assemble(e: Env, context: Context) {
  const switches = runtime.build(e, context);
  return {
    ...server.build(e, context),
    ...backend.build(e, context),
    ...cache.build(e, context),
    limits: {
      ...limits.build(e, context),
      compiledOperations: switches.compiledOperations,
      graphqlJit: switches.graphqlJit,
      admissionControl: switches.admissionControl,
    },
    heapGrowthPercent: switches.heapGrowthPercent,
    httpWarmUp: switches.httpWarmUp,
    /** Live campaign status (subscriptions over WebSocket and SSE). */
    live: live.build(e, context),
    /** App keys, the shared offer feed, trusted documents and rate limits. */
    apps: apps.build(e, context),
    /** OpenTelemetry tracing; undefined: off. */
    tracing: tracing.build(e, context),
  };
}

/** How a value is quoted in a problem: never a secret (not even a wrong one), never a URL's credentials. */
function shown(name: string, value: string | undefined): string {
  const schema = (envSchema.shape as Record<string, z.ZodType | undefined>)[name];
  if (schema && settingDocs.get(schema)?.secret) return `(hidden, ${value?.length ?? 0} characters)`;
  return JSON.stringify(value === undefined ? value : redactUrlValue(value));
}

/** The environment without its empty variables: an empty variable means "not set", as most shells and .env files intend it. */
const presentIn = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));

/**
 * Some variables of the schema, read and checked as the whole configuration reads them: for a
 * process entry that needs only those (the emulator run alone). Throws a ConfigError naming each.
 */
export function readSettings<S extends Record<string, z.ZodType>>(shape: S, env: Record<string, string | undefined> = process.env): z.output<z.ZodObject<S>> {
  const parsed = z.object(shape).safeParse(presentIn(env));
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${shown(name, env[name])}: ${issue.message}`;
    }),
  );
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = presentIn(env);
  const e = readSettings(envSchema.shape, env);
  const context: Context = { production: e.NODE_ENV === 'production', env, present };
  const removed = removedSettingsIn(present);
  const problems = [...removed.refused, ...backend.check(e, context), ...cache.check(e, context), ...limits.check(e, context), ...live.check(e, context), ...server.check(e, context), ...tracing.check(e, context)];
  if (problems.length) throw new ConfigError(problems);
  /** Removed settings still set, ignored in this release: the process names each in a warning. */
  return { ...assemble(e, context), ignoredSettings: removed.ignored };
}
