// Requests per client address in fixed windows, held in this process: for what the HTTP limiter never sees
// (WebSocket upgrades and the subscriptions sent over them). Bounded like the login throttle's map.

const MAX_ENTRIES = 50_000;

export class AddressWindow {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one request of `address`: null when it is allowed, else the seconds until its window ends. */
  hit(address: string): number | null {
    if (this.max <= 0) return null;
    const now = this.clock();
    let w = this.windows.get(address);
    if (!w || w.resetAt <= now) {
      this.windows.delete(address); // re-inserted last: the map stays oldest first
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(address, w);
      for (const oldest of this.windows.keys()) {
        if (this.windows.size <= MAX_ENTRIES) break;
        this.windows.delete(oldest);
      }
    }
    if (w.count >= this.max) return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    w.count++;
    return null;
  }
}
