// The general per-address request limit counted in PostgreSQL (src/db/rate-counters.ts), so that every replica
// counts against one limit: a custom store for @fastify/rate-limit (its README, "Custom store"). One statement per
// request, left out of the request's statement count.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateCounters } from '../db/rate-counters.ts';

export function sharedRequestStore(counters: RateCounters): FastifyRateLimitStoreCtor {
  return class SharedRequestStore implements FastifyRateLimitStore {
    // The plugin constructs its store with its options, which this one does not need.
    constructor(
      _options: unknown,
      private readonly prefix = 'req:',
    ) {}

    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number): void {
      const now = Date.now();
      counters.hit(`${this.prefix}${key}`, timeWindow, new Date(now)).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: Math.max(0, resetAt.getTime() - now) }),
        (err: Error) => callback(err),
      );
    }

    /** A route with limits of its own counts apart, as the plugin's in-memory store does. */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes its merged options, with the route under routeInfo (its types say otherwise).
      const route = (routeOptions as unknown as { routeInfo?: { url?: string; method?: unknown } }).routeInfo ?? {};
      return new SharedRequestStore(null, `${this.prefix}${String(route.method ?? '')}:${route.url ?? ''}:`);
    }
  };
}
