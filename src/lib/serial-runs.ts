// Background work a process runs one pass at a time (the e-mail outbox, rescoring jobs): woken by whoever queued
// something for it, often inside a request. A wake-up during a pass runs one more pass after it, so nothing queued
// meanwhile waits for the next wake-up; and a pass runs in the context the runner was made in (the app's start),
// not the request that woke it, so its statements do not count as the request's (x-sql-statements, the response
// cache's tables read, its trace).
import { AsyncLocalStorage } from 'node:async_hooks';

export class SerialRuns {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly outsideRequests = AsyncLocalStorage.snapshot();

  /** `pass` does the work queued so far; it handles (logs) its own failures and never throws. */
  constructor(private readonly pass: () => Promise<void>) {}

  /** Starts a pass unless one is under way, else asks for another after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.outsideRequests(() => this.loop()).finally(() => {
      this.running = null;
      // A wake-up between the loop's last check and here would otherwise be lost.
      if (this.again) this.wake();
    });
  }

  /** Resolves once the pass under way (and any asked for during it) has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No pass starts after this; the one under way finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      await this.pass();
    } while (this.again && !this.stopped);
  }
}
