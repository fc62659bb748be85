// The login throttle (login-throttle.ts) held in this process's memory: for SQLite, whose gateway is one process.
import { accountKey, accountMax, addressKey, emailKey, PER_ADDRESS_FACTOR, secondsUntil } from './login-throttle.ts';
import type { Account, LoginAttempt, LoginThrottle } from './login-throttle.ts';

interface Window {
  count: number;
  resetAt: number;
}

/** Entries kept at most: past it the oldest go first, so no client can grow the map without bound. */
const MAX_ENTRIES = 50_000;
const PRUNE_EVERY_MS = 1000;

export class MemoryLoginThrottle implements LoginThrottle {
  private readonly windows = new Map<string, Window>();
  private lastPrune = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async check(address: string, email: string, account?: Account): Promise<number | null> {
    return this.wait(address, email, account);
  }

  async attempt(address: string, email: string, account?: Account): Promise<LoginAttempt> {
    // Checked and counted with no await in between: no other attempt can slip in.
    const wait = this.wait(address, email, account);
    if (wait !== null) return { retryAfterSeconds: wait, succeeded: async () => {}, cancelled: async () => {} };
    const [perAddress, perEmail, perAccount] = this.count(address, email, account);
    let ended = false;
    // The windows counted in are given back, not whatever holds their keys by then (a later window).
    const giveBack = (w: Window) => {
      w.count = Math.max(0, w.count - 1);
    };
    return {
      retryAfterSeconds: null,
      succeeded: async () => {
        if (ended) return;
        ended = true;
        giveBack(perAddress);
        this.windows.delete(emailKey(address, email));
        if (account !== undefined) this.windows.delete(accountKey(account));
      },
      cancelled: async () => {
        if (ended) return;
        ended = true;
        giveBack(perAddress);
        giveBack(perEmail);
        if (perAccount) giveBack(perAccount);
      },
    };
  }

  get size(): number {
    return this.windows.size;
  }

  private wait(address: string, email: string, account?: Account): number | null {
    const now = this.clock();
    const over = [
      this.live(addressKey(address), now, this.max * PER_ADDRESS_FACTOR),
      this.live(emailKey(address, email), now, this.max),
      account === undefined ? null : this.live(accountKey(account), now, accountMax(account, this.max)),
    ].filter((w): w is Window => w !== null);
    return over.length ? secondsUntil(Math.max(...over.map((w) => w.resetAt)), now) : null;
  }

  /** Counts one attempt; returns the address's, the e-mail's and (when given) the account's windows. */
  private count(address: string, email: string, account?: Account): [Window, Window, Window | null] {
    const now = this.clock();
    this.prune(now);
    return [
      this.hit(addressKey(address), now),
      this.hit(emailKey(address, email), now),
      account === undefined ? null : this.hit(accountKey(account), now),
    ];
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
