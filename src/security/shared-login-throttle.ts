// The login throttle (login-throttle.ts) held in PostgreSQL (src/db/rate-counters.ts), so that every replica counts
// against one limit. An attempt is checked and counted in one locked step; ending it costs one more statement.
import type { RateCounters } from '../db/rate-counters.ts';
import { accountKey, accountMax, addressKey, emailKey, PER_ADDRESS_FACTOR, secondsUntil } from './login-throttle.ts';
import type { Account, LoginAttempt, LoginThrottle } from './login-throttle.ts';

export class SharedLoginThrottle implements LoginThrottle {
  /**
   * The last attempt of each address sent to the database from this process. Attempts of one address go one at a
   * time: all of them lock that address's row, so a flood from one address would otherwise hold a pool connection
   * per attempt while it waits for the lock, and everyone else's statements would wait for a connection.
   */
  private readonly lastOfAddress = new Map<string, Promise<unknown>>();

  constructor(
    private readonly counters: RateCounters,
    /** Prefixes the keys, so throttles sharing the table keep their own counts. */
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async check(address: string, email: string, account?: Account): Promise<number | null> {
    const now = this.clock();
    const until = await this.counters.fullUntil(this.limits(address, email, account), new Date(now));
    return until ? secondsUntil(until.getTime(), now) : null;
  }

  async attempt(address: string, email: string, account?: Account): Promise<LoginAttempt> {
    const now = this.clock();
    const limits = this.limits(address, email, account);
    const { refusedUntil, windows } = await this.oneAtATime(limits[0].key, () =>
      this.counters.hitUnder(limits, this.windowMs, new Date(now)),
    );
    if (refusedUntil) {
      const retryAfterSeconds = secondsUntil(refusedUntil.getTime(), now);
      return { retryAfterSeconds, succeeded: async () => {}, cancelled: async () => {} };
    }
    const [perAddress, perEmail, perAccount] = limits.map((l) => windows.find((w) => w.key === l.key)!);
    let ended = false;
    // An attempt that cannot be given back (the database is away) stays counted as a failure: the limit errs on
    // the safe side, and the caller's own error is the one to report.
    const end = async (given: typeof windows, cleared: string[]) => {
      if (ended) return;
      ended = true;
      await this.counters.giveBack(given, cleared).catch(() => {});
    };
    return {
      retryAfterSeconds: null,
      succeeded: () => end([perAddress], perAccount ? [perEmail.key, perAccount.key] : [perEmail.key]),
      cancelled: () => end(perAccount ? [perAddress, perEmail, perAccount] : [perAddress, perEmail], []),
    };
  }

  private oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.lastOfAddress.get(key) ?? Promise.resolve()).then(work);
    const settled = run.catch(() => {});
    this.lastOfAddress.set(key, settled);
    void settled.then(() => {
      if (this.lastOfAddress.get(key) === settled) this.lastOfAddress.delete(key);
    });
    return run;
  }

  private limits(address: string, email: string, account?: Account) {
    return [
      { key: `${this.name}:${addressKey(address)}`, max: this.max * PER_ADDRESS_FACTOR },
      { key: `${this.name}:${emailKey(address, email)}`, max: this.max },
      ...(account === undefined
        ? []
        : [{ key: `${this.name}:${accountKey(account)}`, max: accountMax(account, this.max) }]),
    ];
  }
}
