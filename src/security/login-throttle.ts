// Failed login attempts per client address and per (address, e-mail), in fixed windows, kept in memory.
// Login is the one operation an attacker can repeat without credentials, so it gets its own strict limit on top
// of the general per-address limit; GraphQL's `login` and REST's POST /auth/login share it (REST runs the mutation).
// Only failures count (an office behind one NAT address logs in all morning); a success clears its e-mail's count.
// In memory means per process: behind several replicas the effective limit is multiplied (README says so).
import { createHash } from 'node:crypto';

interface Window {
  count: number;
  resetAt: number;
}

/** Addresses get a wider budget than one address and e-mail, so a shared NAT does not lock out an office. */
const PER_ADDRESS_FACTOR = 10;
/** Entries kept at most: past it the oldest go first, so no client can grow the map without bound. */
const MAX_ENTRIES = 50_000;
const PRUNE_EVERY_MS = 1000;

export class LoginThrottle {
  private readonly windows = new Map<string, Window>();
  private lastPrune = 0;

  constructor(private readonly max: number, private readonly windowMs: number, private readonly clock: () => number = Date.now) {}

  /** Seconds to wait before another attempt for this address and e-mail, or null when one is allowed. */
  check(address: string, email: string): number | null {
    const now = this.clock();
    const over = [this.live(addressKey(address), now, this.max * PER_ADDRESS_FACTOR), this.live(emailKey(address, email), now, this.max)]
      .filter((w): w is Window => w !== null);
    return over.length ? Math.max(1, Math.ceil((Math.max(...over.map((w) => w.resetAt)) - now) / 1000)) : null;
  }

  failed(address: string, email: string): void {
    const now = this.clock();
    this.prune(now);
    this.hit(addressKey(address), now);
    this.hit(emailKey(address, email), now);
  }

  succeeded(address: string, email: string): void {
    this.windows.delete(emailKey(address, email));
  }

  get size(): number {
    return this.windows.size;
  }

  /** The window of `key` when it has reached `limit`, else null. */
  private live(key: string, now: number, limit: number): Window | null {
    const w = this.windows.get(key);
    return w && w.resetAt > now && w.count >= limit ? w : null;
  }

  private hit(key: string, now: number) {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      this.windows.delete(key); // re-inserted last: Map order is then oldest first
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      w.count++;
    }
    for (const oldest of this.windows.keys()) {
      if (this.windows.size <= MAX_ENTRIES) break;
      this.windows.delete(oldest);
    }
  }

  private prune(now: number) {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

const addressKey = (address: string) => `a:${address}`;
// Hashed, so a megabyte-long e-mail costs the map no more than a short one.
const emailKey = (address: string, email: string) => `e:${address}:${createHash('sha256').update(email).digest('base64url')}`;
