import { readFile, watchFile, unwatchFile, type Stats } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config.js';
import type { Logger } from '../observability/logger.js';
import { keyedHashes, type KeyedHashes } from '../secrets/index.js';

/**
 * App keys: a public, revocable key per app. It ships inside the app, so it is no secret: it
 * only says which partners' public feed the app reads. The partner tokens it stands in for stay
 * on the server; nothing derived from this module lets one leave (an `AppKey` carries the
 * tokens, but only the feed and the category directory ever call the backend with them).
 */
export interface AppKey {
  /** The app's name, for logs and metrics (never the key's tokens). */
  name: string;
  /** The partner tokens the app reads for, in the file's order, without repeats. */
  partnerTokens: readonly string[];
  /** The key's keyed hash (a key is a credential too), for rate-limit buckets and what is remembered per app. */
  keyHash: string;
}

const KEY_PATTERN = /^[A-Za-z0-9._~-]{8,128}$/;

const entrySchema = z
  .object({
    name: z.string().min(1, { error: 'must be a non-empty app name' }).max(200),
    partnerTokens: z.array(z.string().min(1).max(1000)).min(1, { error: 'must list at least one partner token' }).max(100).optional(),
    partnerToken: z.string().min(1).max(1000).optional(),
  })
  .strict()
  .refine((e) => (e.partnerTokens === undefined) !== (e.partnerToken === undefined), {
    error: 'needs exactly one of "partnerToken" (a string) or "partnerTokens" (a list)',
  });

export const appKeysFileSchema = z.record(z.string(), entrySchema);

export type AppKeysFile = z.input<typeof appKeysFileSchema>;

/** What an app is named by in buckets and caches: its key's keyed hash. */
export const hashKey = (hashes: KeyedHashes, key: string): string => hashes.of('app-key', key);

/**
 * The keys from a file's text, or an error that says what is wrong where. Never quotes a token:
 * the error goes to the log. Each key's hash is made with `hashes` (default: a secret of this process).
 */
export function parseAppKeys(text: string, hashes: KeyedHashes = keyedHashes()): ReadonlyMap<string, AppKey> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message.replace(/"[^"]*"/g, '"…"').slice(0, 120)})`);
  }
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const bad = Object.keys(json).find((key) => !KEY_PATTERN.test(key));
    if (bad !== undefined) throw new Error(`${bad.slice(0, 40)}: an app key is 8 to 128 characters of A-Z a-z 0-9 . _ ~ -`);
  }
  const parsed = appKeysFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // Paths name keys and fields only; a key is public, a token is never a path element.
    const where = issue.path.length ? issue.path.map(String).join('.') : 'the top level (expected an object of app keys)';
    throw new Error(`${where}: ${issue.message}`);
  }
  const keys = new Map<string, AppKey>();
  for (const [key, entry] of Object.entries(parsed.data)) {
    const tokens = [...new Set(entry.partnerTokens ?? [entry.partnerToken!])];
    keys.set(key, Object.freeze({ name: entry.name, partnerTokens: Object.freeze(tokens), keyHash: hashKey(hashes, key) }));
  }
  return keys;
}

export interface AppKeyRegistry {
  /** The app of a key, or undefined for an unknown or revoked key. */
  lookup(key: string): AppKey | undefined;
  /** How many keys are configured. */
  size(): number;
  /** Reads the file again now (the watcher does this on change); a bad file keeps the last good set. */
  reload(): Promise<void>;
  close(): void;
}

export interface AppKeyRegistryOptions {
  /** `APP_KEYS_FILE`; unset means only `fixed` keys. */
  file?: string | undefined;
  /** Keys configured in code (the demo key on the embedded emulator); the file's keys win. */
  fixed?: ReadonlyMap<string, AppKey>;
  /** How often the file's modification time is checked. */
  reloadMs: number;
  /** What each key's hash is made with: the fleet's keyed hashes, so that instances share an app's buckets. */
  hashes: KeyedHashes;
  logger: Logger;
}

/**
 * Keys from `APP_KEYS_FILE`, re-read when the file changes so keys rotate without a restart.
 * `fs.watchFile` polls the path's stat rather than watching an inode, so it also sees a file
 * replaced by rename (how editors and config tools write), which `fs.watch` can miss.
 */
export async function createAppKeyRegistry(options: AppKeyRegistryOptions): Promise<AppKeyRegistry> {
  const { file, logger } = options;
  const fixed: ReadonlyMap<string, AppKey> = options.fixed ?? new Map<string, AppKey>();
  let keys: ReadonlyMap<string, AppKey> = new Map(fixed);

  /**
   * Reads the file. At start-up a file that cannot be read or used stops the process, like any
   * other bad setting: an instance with none of its keys would pass its probes and refuse every
   * app. Afterwards a bad version keeps the last good keys (a file being rewritten, a typo).
   */
  const load = (atStart = false) =>
    new Promise<void>((resolve, reject) => {
      if (!file) return resolve();
      readFile(file, 'utf8', (error, text) => {
        if (error) {
          const reason = error.code ? `${error.code}: ${error.message.replace(/^[A-Z]+: /, '').split(',')[0]}` : error.message;
          if (atStart) return reject(new ConfigError([`APP_KEYS_FILE=${JSON.stringify(file)}: cannot be read (${reason})`]));
          logger.error({ file, reason: error.code ?? error.message, keptKeys: keys.size }, 'app keys file unreadable; keeping the last good keys');
          return resolve();
        }
        try {
          const loaded = parseAppKeys(text, options.hashes);
          keys = new Map([...fixed, ...loaded]);
          logger.info({ file, keys: keys.size, apps: [...new Set([...loaded.values()].map((a) => a.name))].slice(0, 50) }, 'app keys loaded');
        } catch (problem) {
          if (atStart) return reject(new ConfigError([`APP_KEYS_FILE=${JSON.stringify(file)}: ${(problem as Error).message}`]));
          logger.error({ file, reason: (problem as Error).message, keptKeys: keys.size }, 'app keys file invalid; keeping the last good keys');
        }
        resolve();
      });
    });

  await load(true);
  const onChange = (current: Stats, previous: Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size || current.ino !== previous.ino) void load();
  };
  if (file) watchFile(file, { interval: options.reloadMs, persistent: false }, onChange);

  return {
    lookup: (key) => keys.get(key),
    size: () => keys.size,
    reload: () => load(),
    close() {
      if (file) unwatchFile(file, onChange);
    },
  };
}
