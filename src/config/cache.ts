import { z } from 'zod';
import { REDIS_URL_FORMS, redisUrlProblem, SINGLE_SERVER_URL } from '../cache/redis-url.js';
import { describe, int, section } from './setting.js';

const oneRedisServer = z.url({ protocol: /^rediss?$/ });
/** One server (redis://, rediss://), a Sentinel group or a Cluster: cache/redis-url.ts reads the last two. */
const redisUrl = z.string().superRefine((value, ctx) => {
  const problem = SINGLE_SERVER_URL.test(value) ? (oneRedisServer.safeParse(value).success ? undefined : REDIS_URL_FORMS) : redisUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const cache = section({
  title: 'Cache',
  about: 'Where what the instances of a fleet share is kept (in memory when no Redis is named), and how long the category directory stays fresh.',
  shape: {
    CACHE_URL: describe(redisUrl.optional(), {
      default: 'in memory',
      allowed: 'a `redis://` or `rediss://` URL of one server, `redis+sentinel://[user:password@]host:26379,host2/master[/db]` for a Sentinel group, or `redis+cluster://[user:password@]host:6379,host2` for a Cluster',
      description:
        'The Redis of the category directory, the APQ store, the offer feed (builds, lock, invalidation), the app rate limits, live status (reader lease, events) and the token verdicts the fleet shares. What is kept there per partner or app is named by keyed hashes under `CURSOR_SECRET`, which production therefore needs with it (in development, without it, each instance keeps those to itself). Every key expires. Credentials in it are never printed.',
      example: 'redis://cache:6379',
    }),
    CATEGORY_TTL_MS: int(1000, 86_400_000, 300_000, { description: 'The freshness of the category directory (served stale while it refreshes).' }),
  },
  check: (e, { production, present }) =>
    production && e.CACHE_URL !== undefined && present.CURSOR_SECRET === undefined
      ? [
          'CURSOR_SECRET is not set: with CACHE_URL the instances of a fleet name partners and apps in Redis (token verdicts, offer feeds, live status, rate limits) by keyed hashes of CURSOR_SECRET, and read each other\'s cursors with it; set the same secret of at least 32 characters on every instance',
        ]
      : [],
  build: (e) => ({
    cacheUrl: e.CACHE_URL,
    categoryTtlMs: e.CATEGORY_TTL_MS,
  }),
});
