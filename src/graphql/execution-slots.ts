// At most a few GraphQL operations execute at once (REST routes included: theirs are stored operations); the rest
// wait their turn, first come first served. Execution is JavaScript on one thread: past a few operations at once,
// more only interleave, they do not finish sooner, and each one in flight holds its response under construction (a
// 700 KB REST response is tens of megabytes of objects until it is serialized). Sixteen interleaved took the
// server's peak RSS to 700 MiB at the same throughput that two at a time serve in 520 (docs/performance.md).
// Response cache hits do not execute and never wait; mutations do not queue (inSlots). A query that
// waits may still be a cache hit: when an identical one's response is cached meanwhile (whileWaiting), it leaves
// the queue with it instead of waiting for a slot only to find that response.
import type { GatewayExecutor } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import type { ExecutionCounts } from '../observability/metrics.ts';
import type { Context } from './context.ts';

interface Waiter {
  /** Hands the slot over. */
  start: () => void;
  /** Set by release() as it hands the slot over. */
  started: boolean;
  /** Served while it waited: release() passes it by. */
  gone: boolean;
}

export class ExecutionSlots {
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** Waiters in the queue that are gone (served while they waited) and not yet passed by. */
  private gone = 0;
  private waits = 0;
  private waitedMs = 0;
  private dropped = 0;
  private answeredWaiting = 0;

  /** `limit`: operations executing at once; 0 for no limit. */
  constructor(readonly limit: number) {}

  /**
   * Runs `work` once a slot is free, and frees it however `work` ends; `waited` hears how long it queued. When
   * `stillWanted` says no by its turn, `dropped` responds instead and the slot goes to the next. While it waits,
   * `whileWaiting` may find its response elsewhere: it gets the turn (settled when the slot is handed over, to stop
   * looking) and settles with a claim, which is called, and responds instead, only if it came before the turn.
   */
  async run<T>(
    work: () => Promise<T>,
    {
      waited,
      stillWanted,
      dropped,
      whileWaiting,
    }: {
      waited?: (ms: number) => void;
      stillWanted?: () => boolean;
      dropped?: () => T;
      whileWaiting?: (turn: Promise<void>) => Promise<(() => T) | undefined>;
    } = {},
  ): Promise<T> {
    if (this.limit > 0) {
      if (this.running < this.limit) this.running++;
      else {
        const since = performance.now();
        // The slot is handed over by release(): running stays at the limit.
        const waiter: Waiter = { start: () => {}, started: false, gone: false };
        const turn = new Promise<void>((resolve) => (waiter.start = resolve));
        this.queue.push(waiter);
        const claim = whileWaiting
          ? await Promise.race([turn.then(() => undefined), whileWaiting(turn).catch(() => undefined)])
          : await turn.then(() => undefined);
        const ms = performance.now() - since;
        this.waits++;
        this.waitedMs += ms;
        waited?.(ms);
        if (claim) {
          this.answeredWaiting++;
          // Handed the slot in the same turn of the event loop: passed on, as this one does not run.
          if (waiter.started) this.release();
          else {
            waiter.gone = true;
            this.gone++;
          }
          return claim();
        }
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
    let next = this.queue.shift();
    while (next?.gone) {
      this.gone--;
      next = this.queue.shift();
    }
    if (next) {
      next.started = true;
      next.start();
    } else this.running--;
  }

  /** Operations executing and waiting now, and how many waited for how long in all (the metrics). */
  stats(): ExecutionCounts {
    const { running, queue, gone, waits, waitedMs, dropped, answeredWaiting } = this;
    return { running, waiting: queue.length - gone, waits, waitedMs, dropped, answeredWaiting };
  }
}

/**
 * The executor, its queries run in `slots`; the wait goes into the request's outcome (its log line). Mutations are
 * not held back: they are small responses, and a slot held through a password hash or a rescoring's transaction
 * would hold every read of every tenant behind it. A query whose request the deadline responded to, or whose
 * client left, while it waited is not run: it would only delay the queries behind it.
 */
export function inSlots(executor: GatewayExecutor, slots: ExecutionSlots): GatewayExecutor {
  if (slots.limit === 0) return executor;
  return (requestContext) => {
    if (requestContext.operation?.operation !== 'query') return executor(requestContext);
    const context = requestContext.context as Partial<Context>;
    const outcome = context.client?.outcome;
    const cached = context.cacheWhileWaiting;
    return slots.run(() => executor(requestContext), {
      whileWaiting: cached
        ? async (turn) => {
            const claim = await cached(turn);
            return claim && (() => ({ data: claim() }));
          }
        : undefined,
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

const DROPPED_MESSAGE = 'the request was served or abandoned while it waited to execute: it was not run';
