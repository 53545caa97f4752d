import { z } from 'zod';
import { describe, int, section } from './setting.js';

const redisUrl = z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379' });

export const cache = section({
  title: 'Cache',
  about: 'Where what the instances of a fleet share is kept (in memory when no Redis is named), and how long the category directory stays fresh.',
  shape: {
    CACHE_URL: describe(redisUrl.optional(), {
      default: 'in memory',
      allowed: 'a `redis://` or `rediss://` URL',
      description:
        'The Redis of the category directory, the APQ store, the offer feed (builds, lock, invalidation), the app rate limits, live status (reader lease, events) and, with `CURSOR_SECRET`, the token verdicts the fleet shares. Credentials in it are never printed.',
      example: 'redis://cache:6379',
    }),
    CATEGORY_TTL_MS: int(1000, 86_400_000, 300_000, { description: 'The freshness of the category directory (served stale while it refreshes).' }),
  },
  build: (e) => ({
    cacheUrl: e.CACHE_URL,
    categoryTtlMs: e.CATEGORY_TTL_MS,
  }),
});
