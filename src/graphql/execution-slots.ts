// At most a few GraphQL operations execute at once (REST routes included: theirs are stored operations); the rest
// wait their turn, first come first served. Execution is JavaScript on one thread: past a few operations at once,
// more only interleave, they do not finish sooner, and each one in flight holds its answer under construction (a
// 700 KB REST answer is tens of megabytes of objects until it is serialized). Sixteen interleaved took the
// server's peak RSS to 700 MiB at the same throughput that two at a time serve in 520 (docs/performance.md).
// Answers from the response cache do not execute and never wait; mutations do not queue (inSlots).
import type { GatewayExecutor } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import type { Context } from './context.ts';

export interface ExecutionStats {
  running: number;
  waiting: number;
  waits: number;
  waitedMs: number;
  /** Queued work not run because, by its turn, nobody was waiting for it any more. */
  dropped: number;
}

export class ExecutionSlots {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private waits = 0;
  private waitedMs = 0;
  private dropped = 0;

  /** `limit`: operations executing at once; 0 for no limit. */
  constructor(readonly limit: number) {}

  /**
   * Runs `work` once a slot is free, and frees it however `work` ends; `waited` hears how long it queued. When
   * `stillWanted` says no by its turn, `dropped` answers instead and the slot goes to the next.
   */
  async run<T>(
    work: () => Promise<T>,
    {
      waited,
      stillWanted,
      dropped,
    }: { waited?: (ms: number) => void; stillWanted?: () => boolean; dropped?: () => T } = {},
  ): Promise<T> {
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
        if (stillWanted && dropped && !stillWanted()) {
          this.dropped++;
          this.release();
          return dropped();
        }
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
    const { running, queue, waits, waitedMs, dropped } = this;
    return { running, waiting: queue.length, waits, waitedMs, dropped };
  }
}

/**
 * The executor, its queries run in `slots`; the wait goes into the request's outcome (its log line). Mutations are
 * not held back: they are small answers, and a slot held through a password hash or a rescoring's transaction
 * would hold every read of every tenant behind it. A query whose request was answered by the deadline, or whose
 * client left, while it waited is not run: it would only delay the queries behind it.
 */
export function inSlots(executor: GatewayExecutor, slots: ExecutionSlots): GatewayExecutor {
  if (slots.limit === 0) return executor;
  return (requestContext) => {
    if (requestContext.operation?.operation !== 'query') return executor(requestContext);
    const outcome = (requestContext.context as Partial<Context>).client?.outcome;
    return slots.run(() => executor(requestContext), {
      waited: (ms) => {
        if (outcome) outcome.queuedMs = Math.round(ms * 10) / 10;
      },
      stillWanted: () => outcome?.abandoned === undefined,
      dropped: () => ({
        errors: [new GraphQLError(DROPPED_MESSAGE, { extensions: { code: 'REQUEST_TIMEOUT' } })],
      }),
    });
  };
}

const DROPPED_MESSAGE = 'the request was answered or abandoned while it waited to execute: it was not run';
