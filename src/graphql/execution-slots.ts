// At most a few GraphQL operations execute at once (REST routes included: theirs are stored operations); the rest
// wait their turn, first come first served. Execution is JavaScript on one thread: past a few operations at once,
// more only interleave, they do not finish sooner, and each one in flight holds its answer under construction (a
// 700 KB REST answer is tens of megabytes of objects until it is serialized). Sixteen interleaved took the
// server's peak RSS to 700 MiB at the same throughput that two at a time serve in 520 (docs/performance.md).
// Answers from the response cache do not execute and never wait; mutations do not queue (inSlots).
import type { GatewayExecutor } from '@apollo/server-gateway-interface';
import type { Context } from './context.ts';

export interface ExecutionStats {
  running: number;
  waiting: number;
  waits: number;
  waitedMs: number;
}

export class ExecutionSlots {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private waits = 0;
  private waitedMs = 0;

  /** `limit`: operations executing at once; 0 for no limit. */
  constructor(readonly limit: number) {}

  /** Runs `work` once a slot is free, and frees it however `work` ends; `waited` hears how long it queued. */
  async run<T>(work: () => Promise<T>, waited?: (ms: number) => void): Promise<T> {
    if (this.limit > 0) {
      if (this.running < this.limit) this.running++;
      else {
        const since = performance.now();
        // The slot is handed over by release(): running stays at the limit.
        await new Promise<void>((resolve) => this.queue.push(resolve));
        const ms = performance.now() - since;
        this.waits++;
        this.waitedMs += ms;
        waited?.(ms);
      }
    }
    try {
      return await work();
    } finally {
      if (this.limit > 0) this.release();
    }
  }

  private release() {
    const next = this.queue.shift();
    if (next) next();
    else this.running--;
  }

  /** Operations executing and waiting now, and how many waited for how long in all (the metrics). */
  stats(): ExecutionStats {
    return { running: this.running, waiting: this.queue.length, waits: this.waits, waitedMs: this.waitedMs };
  }
}

/**
 * The executor, its queries run in `slots`; the wait goes into the request's outcome (its log line). Mutations are
 * not held back: they are small answers, and a slot held through a password hash or a rescoring's transaction
 * would hold every read of every tenant behind it.
 */
export function inSlots(executor: GatewayExecutor, slots: ExecutionSlots): GatewayExecutor {
  if (slots.limit === 0) return executor;
  return (requestContext) =>
    requestContext.operation?.operation !== 'query'
      ? executor(requestContext)
      : slots.run(
          () => executor(requestContext),
          (ms) => {
            const outcome = (requestContext.context as Partial<Context>).client?.outcome;
            if (outcome) outcome.queuedMs = Math.round(ms * 10) / 10;
          },
        );
}
