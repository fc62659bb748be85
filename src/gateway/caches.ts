// The caches the engine holds across requests, when it runs them (ENGINE, RESPONSE_CACHE_MB): whole responses,
// and the rows authentication reads, which follow the responses' table versions.
import type { Config } from '../config.ts';
import { AuthRowCache } from '../engine/cache/auth-row-cache.ts';
import { ResponseCache } from '../engine/cache/response-cache.ts';
import type { Engine } from '../engine/index.ts';
import type { Metrics } from '../observability/metrics.ts';

export interface Caches {
  responseCache: ResponseCache | null;
  authRows: AuthRowCache | null;
}

export function openCaches(engine: Engine, config: Config, metrics: Metrics): Caches {
  const responseCache = engine.responseCache ? new ResponseCache(config.responseCacheBytes) : null;
  const authRows = responseCache ? new AuthRowCache() : null;
  if (responseCache) {
    metrics.watch('responseCache', () => ({
      ...responseCache.stats,
      ...responseCache.size,
      sharedTaken: responseCache.reads.stats.taken,
      sharedRows: responseCache.reads.size.rows,
    }));
  }
  return { responseCache, authRows };
}
