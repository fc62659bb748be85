// Failed login attempts per client address and per (address, e-mail), in fixed windows, kept in memory.
// Login is the one operation an attacker can repeat without credentials, so it gets its own strict limit on top
// of the general per-address limit; GraphQL's `login` and REST's POST /auth/login share it (REST runs the mutation).
// Only failures count (an office behind one NAT address logs in all morning); a success clears its e-mail's count.
// An attempt is counted when it starts (`attempt`), before its password is checked, and given back if it succeeds:
// attempts sent at once are then held to the limit exactly like attempts sent one after another, where counting
// after the check would let every attempt already in flight through to scrypt.
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

/** A login attempt `attempt` let through and counted: unless ended otherwise, it stays counted as a failure. */
export interface LoginAttempt {
  /** Seconds to wait when the attempt was refused (nothing was counted), else null. */
  readonly retryAfterSeconds: number | null;
  /** The credentials were right: the attempt is given back and the e-mail's failures are cleared. */
  succeeded(): void;
  /** No credential was checked (the database was away, ...): the attempt is given back. */
  cancelled(): void;
}

export class LoginThrottle {
  private readonly windows = new Map<string, Window>();
  private lastPrune = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Seconds to wait before another attempt for this address and e-mail, or null when one is allowed. */
  check(address: string, email: string): number | null {
    const now = this.clock();
    const over = [
      this.live(addressKey(address), now, this.max * PER_ADDRESS_FACTOR),
      this.live(emailKey(address, email), now, this.max),
    ].filter((w): w is Window => w !== null);
    return over.length ? Math.max(1, Math.ceil((Math.max(...over.map((w) => w.resetAt)) - now) / 1000)) : null;
  }

  /**
   * Checks and counts one attempt at once (no other request can slip in between): refused past the limit, else
   * counted as a failure until it is ended with `succeeded` or `cancelled`.
   */
  attempt(address: string, email: string): LoginAttempt {
    const wait = this.check(address, email);
    if (wait !== null) return { retryAfterSeconds: wait, succeeded: () => {}, cancelled: () => {} };
    const [perAddress, perEmail] = this.count(address, email);
    let ended = false;
    // The windows counted in are given back, not whatever holds their keys by then (a later window).
    const giveBack = (w: Window) => {
      w.count = Math.max(0, w.count - 1);
    };
    return {
      retryAfterSeconds: null,
      succeeded: () => {
        if (ended) return;
        ended = true;
        giveBack(perAddress);
        this.succeeded(address, email);
      },
      cancelled: () => {
        if (ended) return;
        ended = true;
        giveBack(perAddress);
        giveBack(perEmail);
      },
    };
  }

  /** Clears the e-mail's failures. */
  succeeded(address: string, email: string): void {
    this.windows.delete(emailKey(address, email));
  }

  get size(): number {
    return this.windows.size;
  }

  /** Counts one attempt; returns the address's and the e-mail's windows. */
  private count(address: string, email: string): [Window, Window] {
    const now = this.clock();
    this.prune(now);
    return [this.hit(addressKey(address), now), this.hit(emailKey(address, email), now)];
  }

  /** The window of `key` when it has reached `limit`, else null. */
  private live(key: string, now: number, limit: number): Window | null {
    const w = this.windows.get(key);
    return w && w.resetAt > now && w.count >= limit ? w : null;
  }

  private hit(key: string, now: number): Window {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      this.windows.delete(key); // re-inserted last: Map order is then oldest first
      w = { count: 1, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    } else {
      w.count++;
    }
    for (const oldest of this.windows.keys()) {
      if (this.windows.size <= MAX_ENTRIES) break;
      this.windows.delete(oldest);
    }
    return w;
  }

  private prune(now: number) {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

const addressKey = (address: string) => `a:${address}`;
// Hashed, so a megabyte-long e-mail costs the map no more than a short one.
const emailKey = (address: string, email: string) =>
  `e:${address}:${createHash('sha256').update(email).digest('base64url')}`;
