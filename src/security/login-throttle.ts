// Login attempts per client address and per (address, e-mail), in fixed windows, kept in memory.
// Login is the one operation an attacker can repeat without credentials, so it gets its own strict limit on top
// of the general per-address limit; GraphQL's `login` and REST's POST /auth/login share it (REST runs the mutation).
// In memory means per process: behind several replicas the effective limit is multiplied (README says so).

interface Window {
  count: number;
  resetAt: number;
}

/** Addresses get a wider budget than one address and e-mail, so a shared NAT does not lock out an office. */
const PER_ADDRESS_FACTOR = 10;
const PRUNE_AT = 10_000;

export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly max: number, private readonly windowMs: number, private readonly clock: () => number = Date.now) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else null. */
  attempt(address: string, email: string): number | null {
    const now = this.clock();
    if (this.windows.size > PRUNE_AT) this.prune(now);
    const perAddress = this.hit(`a:${address}`, now);
    const perEmail = this.hit(`e:${address}\u0000${email}`, now);
    const over = [
      perAddress.count > this.max * PER_ADDRESS_FACTOR ? perAddress : null,
      perEmail.count > this.max ? perEmail : null,
    ].filter((w): w is Window => w !== null);
    if (over.length === 0) return null;
    return Math.max(1, Math.ceil((Math.max(...over.map((w) => w.resetAt)) - now) / 1000));
  }

  private hit(key: string, now: number): Window {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return w;
  }

  private prune(now: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
