// What live events may cost. One event reaches every subscriber of its topic at once, and each subscription's
// document is executed for it: left alone, one client's many heavy subscriptions turn one routine write into
// hundreds of executions that hold the process's memory and its one thread. So, per event:
// - identical subscriptions (same document, operation and variables) share one execution while it runs, and its
//   response is sent to each of them: across callers and addresses when the document selects only fields that show
//   every caller of one visibility the same (visibilityKey, src/app/scope.ts: company acted on and its settings, own
//   company or not, role; documents.ts decides it once per text), else within one address and caller. A refusal
//   (a budget, the queue) is not shared: each asks its own; a caller refused or not read is answered alone, first;
// - the objects of the responses to one socket and one address are budgeted (LIVE_MAX_OBJECTS_PER_SOCKET,
//   LIVE_MAX_OBJECTS_PER_ADDRESS): past either, that subscription's response to this event is an error, and its
//   execution stops where it crossed the line, so the work one client can cause per event is bounded;
// - executions run a few at a time (LIVE_MAX_CONCURRENT_EXECUTIONS), apart from the HTTP execution slots and each
//   after a turn of the event loop, so HTTP requests are never queued behind them; the rest wait in a queue of at
//   most LIVE_MAX_QUEUED_EXECUTIONS, of which one address may take a tenth and one socket a quarter of that, past
//   which a subscription's event is dropped with an error; a subscription ended while it waited is not executed;
// - the objects all executions in flight hold together are budgeted (LIVE_MAX_OBJECTS_IN_FLIGHT).
import { createSourceEventStream, execute, GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { SharedBudget } from '../../app/object-budget.ts';
import { visibilityKey } from '../../app/scope.ts';
import type { RequestAuth } from '../../auth/request-auth.ts';
import { DomainError, formatCount } from '../../domain/errors.ts';
import type { EventReads } from '../../live/bus.ts';
import type { LiveExecutionFigures } from '../../observability/metrics.ts';
import type { Context } from '../context.ts';
import { ExecutionSlots } from '../execution-slots.ts';
import type { SubscriptionChannel } from './channel.ts';
import { runWithSqlStats, type SqlStats } from '../../db/sql-stats.ts';
import type { LiveDelivery } from './stream.ts';

export interface LiveLimits {
  /** Objects the responses to one event on one socket may hold together. */
  maxObjectsPerSocket: number;
  /** Objects the responses to one event on all sockets of one client address may hold together. */
  maxObjectsPerAddress: number;
  /** Objects all event executions of the process may hold at once. */
  maxObjectsInFlight: number;
  maxConcurrentExecutions: number;
  maxQueuedExecutions: number;
}

type Limit = 'socket' | 'address' | 'process';

/**
 * What one event has cost in this process so far: objects per socket (by number, so an event held by a slow
 * subscriber's queue holds no socket) and per address, and its runs in flight (a finished one's response is not held).
 */
interface EventCosts {
  spent: Map<number | string, number>;
  runs: Map<string, Promise<Ran>>;
}

interface Ran {
  result: ExecutionResult;
  objects: number;
  /** A response of the document's, not a refusal of this socket's or of the moment's: its copies may be sent. */
  shareable: boolean;
}

/** The response to a subscription that ended while its execution waited: nobody reads it. */
const GONE: Ran = { result: { data: null }, objects: 0, shareable: false };

/** An execution works this long at most before it lets the event loop take a turn (HTTP requests, I/O). */
const SLICE_MS = 2;

/** How often a full queue is logged (the count of drops in between goes with it). */
const DROP_LOG_MS = 10_000;

export class SubscriptionExecutions {
  /** Per event, as long as a subscriber still holds it (its EventReads). */
  private readonly events = new WeakMap<EventReads, EventCosts>();
  private readonly slots: ExecutionSlots;
  /** Executions waiting per address and per socket, and what each may have waiting. */
  private readonly waiting = new Map<object | string, number>();
  private readonly waitingPerAddress: number;
  private readonly waitingPerSocket: number;
  private readonly socketIds = new WeakMap<object, number>();
  private socketCount = 0;
  private inFlight = 0;
  private readonly counts = { executions: 0, shared: 0, dropped: 0, statements: 0, scopes: 0 };
  private readonly overBudget: Record<Limit, number> = { socket: 0, address: 0, process: 0 };
  private sliceStart = performance.now();
  /** While set, every object of every execution waits for it: not one branch of one, all let the loop turn. */
  private paused: Promise<void> | null = null;
  private dropsUnlogged = 0;
  private droppedLoggedAt = -Infinity;

  constructor(
    private readonly limits: LiveLimits,
    private readonly warn: (obj: object, msg: string) => void,
  ) {
    this.slots = new ExecutionSlots(limits.maxConcurrentExecutions);
    // One client's many subscriptions cannot fill the queue and have every other tenant's events dropped.
    this.waitingPerAddress = Math.ceil(limits.maxQueuedExecutions / 10);
    this.waitingPerSocket = Math.ceil(this.waitingPerAddress / 4);
  }

  figures(): LiveExecutionFigures {
    const { running, waiting } = this.slots.stats();
    return { ...this.counts, overBudget: { ...this.overBudget }, running, waiting, objectsInFlight: this.inFlight };
  }

  /**
   * For graphql-ws (its `subscribe`): graphql-js's source stream of the subscription, each delivery responded to by
   * respond() instead of an execution of its own.
   */
  readonly subscribe = async (args: ExecutionArgs) => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    return new Responses(this, args, source[Symbol.asyncIterator]() as AsyncIterator<LiveDelivery>);
  };

  async respond(args: ExecutionArgs, delivery: LiveDelivery, wanted: Wanted): Promise<ExecutionResult> {
    const channel = (args.contextValue as Context).subscription!;
    // The caller as read again by refresh (stream.ts) before this delivery: no copy is handed out before it.
    const auth = channel.caller();
    // The caller was refused when read again (sessions revoked, deactivated, token expired) or could not be read:
    // every subscription field requires the caller first, so the execution is that refusal, returned at once. No
    // queue or budget stands between a revoked subscriber and its UNAUTHENTICATED.
    if (auth.viewerError) {
      this.open(channel);
      return execute({ ...args, rootValue: delivery });
    }
    let event = this.events.get(delivery.reads);
    if (!event) this.events.set(delivery.reads, (event = { spent: new Map(), runs: new Map() }));
    const key = shareKey(auth, channel);
    for (let running = key === null ? undefined : event.runs.get(key); running; running = event.runs.get(key!)) {
      const { result, objects, shareable } = await running;
      // A refusal (that socket's budget, the queue) is the first subscriber's: this one asks for its own.
      if (!shareable) continue;
      // Executed once; each copy sent still counts against its own socket and address.
      const refused = this.charge(event, channel, objects);
      if (refused) return refusal(refused);
      this.counts.shared++;
      return result;
    }
    const run = this.run(args, delivery, event, channel, wanted);
    if (key !== null) {
      // Shared while it runs only: a finished response stored with the event would be held, outside every budget, by
      // each slow subscriber's queued deliveries of that event.
      event.runs.set(key, run);
      const forget = () => {
        if (event.runs.get(key) === run) event.runs.delete(key);
      };
      run.then(forget, forget);
    }
    return (await run).result;
  }

  private async run(
    args: ExecutionArgs,
    delivery: LiveDelivery,
    event: EventCosts,
    channel: SubscriptionChannel,
    wanted: Wanted,
  ): Promise<Ran> {
    const spent = this.spentAlready(event, channel);
    if (spent) return { result: refusal(spent), objects: 0, shareable: false };
    const { running, waiting } = this.slots.stats();
    const waits = running >= this.limits.maxConcurrentExecutions;
    if (waits) {
      if (
        waiting >= this.limits.maxQueuedExecutions ||
        (this.waiting.get(channel.address) ?? 0) >= this.waitingPerAddress ||
        (this.waiting.get(channel.socket) ?? 0) >= this.waitingPerSocket
      )
        return { result: this.drop(), objects: 0, shareable: false };
      this.wait(channel, 1);
    }
    const work = async (): Promise<Ran> => {
      // A turn of the event loop first: HTTP requests that arrived meanwhile start before this execution.
      await new Promise((resolve) => setImmediate(resolve));
      if (!wanted.wanted) return GONE;
      // Other subscriptions of this client may have spent its budget while this one waited.
      const spentNow = this.spentAlready(event, channel);
      if (spentNow) return { result: refusal(spentNow), objects: 0, shareable: false };
      // The scope is made only now: a copy of a shared execution, a refusal or a dropped event makes none.
      this.open(channel);
      const objects = (args.contextValue as Context).scope.objects;
      const budget = new EventBudget(this, event, channel);
      objects.share(budget);
      const sql: SqlStats = { statements: 0 };
      this.counts.executions++;
      try {
        // Refused, the response is the refusal at once; what is left of the execution waits forever and is collected.
        const executed = runWithSqlStats(sql, () => execute({ ...args, rootValue: delivery }));
        const result = await Promise.race([executed, budget.refused]);
        return { result, objects: objects.resolved, shareable: !budget.stopped };
      } finally {
        this.inFlight -= budget.pooled;
        this.counts.statements += sql.statements;
      }
    };
    return this.slots.run(work, {
      waited: () => this.wait(channel, -1),
      stillWanted: () => wanted.wanted,
      dropped: () => GONE,
    });
  }

  /** Gives the subscription's context its scope for this event, counted (prode_live_event_scopes_total). */
  private open(channel: SubscriptionChannel) {
    this.counts.scopes++;
    channel.open();
  }

  /** Counts an execution of this socket and address into the queue (1) or out of it (-1). */
  private wait(channel: SubscriptionChannel, step: 1 | -1) {
    for (const who of [channel.address, channel.socket]) {
      const n = (this.waiting.get(who) ?? 0) + step;
      if (n > 0) this.waiting.set(who, n);
      else this.waiting.delete(who);
    }
  }

  /** The socket's number, under which its spending is counted. */
  private socketId(channel: SubscriptionChannel): number {
    let id = this.socketIds.get(channel.socket);
    if (id === undefined) this.socketIds.set(channel.socket, (id = ++this.socketCount));
    return id;
  }

  /**
   * Counts `objects` more of this event's responses against the socket's and the address's budgets, and `pooled`
   * of them against the process's (objects an execution holds). A copy of a response refused is not counted.
   */
  charge(event: EventCosts, channel: SubscriptionChannel, objects: number, pooled = 0): DomainError | null {
    const socketId = this.socketId(channel);
    const socket = (event.spent.get(socketId) ?? 0) + objects;
    const address = (event.spent.get(channel.address) ?? 0) + objects;
    const limit: Limit | null =
      socket > this.limits.maxObjectsPerSocket
        ? 'socket'
        : address > this.limits.maxObjectsPerAddress
          ? 'address'
          : pooled > 0 && this.inFlight + pooled > this.limits.maxObjectsInFlight
            ? 'process'
            : null;
    if (limit === null || pooled > 0) {
      event.spent.set(socketId, socket);
      event.spent.set(channel.address, address);
      this.inFlight += pooled;
    }
    if (limit === null) return null;
    this.overBudget[limit]++;
    return overBudget(limit, this.limits);
  }

  /** A turn of the event loop to wait for once the executions have worked SLICE_MS since the last; else null. */
  pause(): Promise<void> | null {
    if (this.paused || performance.now() - this.sliceStart < SLICE_MS) return this.paused;
    this.paused = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.paused = null;
      this.sliceStart = performance.now();
    });
    return this.paused;
  }

  /** Objects the budgets still allow an execution for this socket and address. */
  left(event: EventCosts, channel: SubscriptionChannel): number {
    return Math.min(
      this.limits.maxObjectsPerSocket - (event.spent.get(this.socketId(channel)) ?? 0),
      this.limits.maxObjectsPerAddress - (event.spent.get(channel.address) ?? 0),
      this.limits.maxObjectsInFlight - this.inFlight,
    );
  }

  private spentAlready(event: EventCosts, channel: SubscriptionChannel): DomainError | null {
    const limit: Limit | null =
      (event.spent.get(this.socketId(channel)) ?? 0) >= this.limits.maxObjectsPerSocket
        ? 'socket'
        : (event.spent.get(channel.address) ?? 0) >= this.limits.maxObjectsPerAddress
          ? 'address'
          : null;
    if (limit === null) return null;
    this.overBudget[limit]++;
    return overBudget(limit, this.limits);
  }

  private drop(): ExecutionResult {
    this.counts.dropped++;
    this.dropsUnlogged++;
    const now = performance.now();
    if (now - this.droppedLoggedAt >= DROP_LOG_MS) {
      this.warn(
        { dropped: this.dropsUnlogged, waiting: this.slots.stats().waiting },
        'live events dropped: too many executions waiting (LIVE_MAX_QUEUED_EXECUTIONS)',
      );
      this.dropsUnlogged = 0;
      this.droppedLoggedAt = now;
    }
    return refusal(
      new DomainError(
        'SERVICE_UNAVAILABLE',
        `too many live events are waiting to be served (LIVE_MAX_QUEUED_EXECUTIONS is ` +
          `${formatCount(this.limits.maxQueuedExecutions)}, of which one address may hold ` +
          `${formatCount(this.waitingPerAddress)} and one connection ${formatCount(this.waitingPerSocket)}): ` +
          `this event was dropped; read the current state again`,
        { limit: 'queue' },
      ),
    );
  }
}

const ENDED: IteratorReturnResult<undefined> = { done: true, value: undefined };
const responded = (value: ExecutionResult): IteratorResult<ExecutionResult, undefined> => ({ done: false, value });

/** Whether the subscription an execution is for still wants its response. */
interface Wanted {
  readonly wanted: boolean;
}

/**
 * What graphql-ws iterates for one subscription: graphql-js's source stream, each delivery responded to by
 * respond() instead of an execution of its own. A class, so a waiting subscription holds one object, not closures.
 */
class Responses implements AsyncIterableIterator<ExecutionResult>, Wanted {
  /** Ended by the client, or with its socket (graphql-ws then calls return): its queued executions are skipped. */
  wanted = true;

  constructor(
    private readonly executions: SubscriptionExecutions,
    private readonly args: ExecutionArgs,
    private readonly deliveries: AsyncIterator<LiveDelivery>,
  ) {}

  [Symbol.asyncIterator]() {
    return this;
  }

  // Promises, not an async function: while it waits, a subscription holds a promise, not a suspended frame.
  next(): Promise<IteratorResult<ExecutionResult, undefined>> {
    return this.deliveries
      .next()
      .then((step) => (step.done ? ENDED : this.executions.respond(this.args, step.value, this).then(responded)));
  }

  async return(): Promise<IteratorResult<ExecutionResult, undefined>> {
    this.wanted = false;
    await this.deliveries.return?.();
    return ENDED;
  }

  async throw(err: unknown): Promise<IteratorResult<ExecutionResult, undefined>> {
    this.wanted = false;
    await this.deliveries.return?.();
    throw err;
  }
}

/** One execution's share of the event's budgets: each object it resolves counts against them as it goes. */
class EventBudget implements SharedBudget {
  /** Objects counted in the process's total, given back when the execution ends. */
  pooled = 0;
  /** Settles with the refusal once a budget is spent. */
  readonly refused: Promise<ExecutionResult>;
  private refuse: (result: ExecutionResult) => void = () => {};
  private refusal: DomainError | null = null;
  /** Never settles: every object resolved after a refusal waits on it, and the execution stops where it is. */
  private readonly halt = new Promise<never>(() => {});

  constructor(
    private readonly executions: SubscriptionExecutions,
    private readonly event: EventCosts,
    private readonly channel: SubscriptionChannel,
  ) {
    this.refused = new Promise((resolve) => (this.refuse = resolve));
  }

  /** True once a budget stopped the execution: its response is a refusal. */
  get stopped(): boolean {
    return this.refusal !== null;
  }

  left(): number {
    return this.executions.left(this.event, this.channel);
  }

  pause(): Promise<void> | null {
    return this.refusal ? this.halt : this.executions.pause();
  }

  halted(): Promise<never> | null {
    return this.refusal ? this.halt : null;
  }

  add(count: number): DomainError | null {
    if (this.refusal) return this.refusal;
    this.pooled += count;
    this.refusal = this.executions.charge(this.event, this.channel, count, count);
    if (this.refusal) this.refuse(refusal(this.refusal));
    return this.refusal;
  }
}

/**
 * Who may share an execution: the same request, by the same visibility. A document that shows every caller of one
 * visibility the same is shared by all of them, whatever their address (each copy is charged to its own socket and
 * address); any other by one caller's subscriptions from one address. None when the guards would refuse the caller
 * or it could not be read: that response is theirs alone.
 */
function shareKey(auth: Readonly<RequestAuth>, channel: SubscriptionChannel): string | null {
  const visibility = visibilityKey(auth);
  if (visibility === null) return null;
  if (channel.acrossCallers) return `all|${visibility}|${channel.request}`;
  return `one|${channel.address}|${auth.viewer!.id}|${visibility}|${channel.request}`;
}

/** The refusals, made once per limits (their messages are the same every time). */
const refusals = new WeakMap<LiveLimits, Map<Limit, DomainError>>();

function overBudget(limit: Limit, limits: LiveLimits): DomainError {
  let made = refusals.get(limits);
  if (!made) refusals.set(limits, (made = new Map()));
  let error = made.get(limit);
  if (!error) made.set(limit, (error = newOverBudget(limit, limits)));
  return error;
}

function newOverBudget(limit: Limit, limits: LiveLimits): DomainError {
  if (limit === 'process')
    return new DomainError(
      'SERVICE_UNAVAILABLE',
      `the live events being served hold more than ${formatCount(limits.maxObjectsInFlight)} objects ` +
        `(LIVE_MAX_OBJECTS_IN_FLIGHT): this response was stopped; read the current state again`,
      { limit },
    );
  const [max, name, where] =
    limit === 'socket'
      ? [limits.maxObjectsPerSocket, 'LIVE_MAX_OBJECTS_PER_SOCKET', 'on this connection']
      : [limits.maxObjectsPerAddress, 'LIVE_MAX_OBJECTS_PER_ADDRESS', 'from this address'];
  return new DomainError(
    'RESPONSE_TOO_LARGE',
    `the responses to this event ${where} hold more than ${formatCount(max)} objects (${name}): this one was not ` +
      `sent; subscribe to fewer or smaller documents`,
    { limit },
  );
}

const refusal = (error: DomainError): ExecutionResult => ({
  data: null,
  errors: [new GraphQLError(error.message, { originalError: error, extensions: error.extensions })],
});
