// Picks the login throttle for the configured database: shared through PostgreSQL, so that every replica counts
// against one limit, or in memory on SQLite, whose gateway is one process.
import type { Database } from '../db/client.ts';
import { RateCounters } from '../db/rate-counters.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { MemoryLoginThrottle } from './memory-login-throttle.ts';
import { SharedLoginThrottle } from './shared-login-throttle.ts';

/** `name` keeps throttles apart where they share the database's counters. */
export function loginThrottleFor(
  db: Pick<Database, 'provider' | 'prisma'>,
  name: string,
  max: number,
  windowMs: number,
): LoginThrottle {
  return db.provider === 'postgresql'
    ? new SharedLoginThrottle(new RateCounters(db.prisma), name, max, windowMs)
    : new MemoryLoginThrottle(max, windowMs);
}
