// Prometheus metrics, one registry per app (tests build several apps in one process).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { MAX_NAMED_STATEMENTS } from '../db/statement-names.ts';
import type { RequestOutcome } from './request-outcome.ts';

/** The execution slots' counts /metrics reads (src/graphql/execution-slots.ts's stats() gives them). */
export interface ExecutionCounts {
  running: number;
  waiting: number;
  waits: number;
  waitedMs: number;
  /** Queued work not run because, by its turn, nobody was waiting for it any more. */
  dropped: number;
  /** Queued work answered while it waited (whileWaiting), which then left the queue. */
  answeredWaiting: number;
}

// Labels are root field names (bounded by the schema); the cap is a second fence.
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_OPERATION_LABELS = 200;
const KNOWN_CODE = /^[A-Z][A-Z_]{2,40}$/;

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly operations: Counter<'operation' | 'outcome'>;
  private readonly errors: Counter<'code'>;
  private readonly statements: Counter<'route'>;
  private readonly statementsPerRequest: Histogram<'route'>;
  private readonly operationLabels = new Set<string>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'prode_' });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'prode_http_requests_total',
      help: 'HTTP requests answered, by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'prode_http_request_duration_seconds',
      help: 'Time from request to last byte of the answer',
      labelNames: ['method', 'route'],
      registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
    this.operations = new Counter({
      name: 'prode_graphql_operations_total',
      help: "GraphQL operations (incl. the REST routes' stored ones) by first root field and outcome",
      labelNames: ['operation', 'outcome'],
      registers,
    });
    this.errors = new Counter({
      name: 'prode_errors_total',
      help: 'Error answers by error code (REST body code or GraphQL extensions.code)',
      labelNames: ['code'],
      registers,
    });
    this.statements = new Counter({
      name: 'prode_sql_statements_total',
      help: 'SQL statements sent while serving requests, by route',
      labelNames: ['route'],
      registers,
    });
    this.statementsPerRequest = new Histogram({
      name: 'prode_sql_statements_per_request',
      help: 'SQL statements per request, by route',
      labelNames: ['route'],
      registers,
      buckets: [0, 1, 2, 4, 8, 16, 32, 64, 128, 256],
    });
  }

  /** Rescoring jobs (src/app/rescore-runner.ts): this process's runs, and the jobs waiting in the database. */
  watchRescoring(
    read: () => { done: number; failed: number; predictions: number; seconds: number },
    pending: () => Promise<{ count: number; oldest: Date | null }>,
  ) {
    const registers = [this.registry];
    // One read for both gauges: a scrape collects every metric at once (prom-client's Promise.all).
    let reading: ReturnType<typeof pending> | null = null;
    const pendingOnce = () => (reading ??= pending().finally(() => (reading = null)));
    new Counter({
      name: 'prode_rescore_jobs_total',
      help: 'Rescoring jobs this process ran, by result (a failed one is retried later)',
      labelNames: ['result'],
      registers,
      collect() {
        const f = read();
        this.reset();
        this.inc({ result: 'done' }, f.done);
        this.inc({ result: 'failed' }, f.failed);
      },
    });
    new Counter({
      name: 'prode_rescore_job_seconds_total',
      help: 'Time spent running rescoring jobs in this process',
      registers,
      collect() {
        this.reset();
        this.inc(read().seconds);
      },
    });
    new Gauge({
      name: 'prode_rescore_jobs_pending',
      help: 'Rescoring jobs waiting in the database (every process); results whose points are not out yet',
      registers,
      async collect() {
        // A scrape during an outage shows the last figure rather than failing the whole page.
        const p = await pendingOnce().catch(() => null);
        if (p) this.set(p.count);
      },
    });
    new Gauge({
      name: 'prode_rescore_job_oldest_age_seconds',
      help: 'How long the oldest waiting rescoring job has waited (0 when none does)',
      registers,
      async collect() {
        const p = await pendingOnce().catch(() => null);
        if (p) this.set(p.oldest ? Math.max(0, (Date.now() - p.oldest.getTime()) / 1000) : 0);
      },
    });
  }

  /** Queries answered by the shared-subtree executor, or given back to graphql-jit (src/graphql/jit-executor.ts). */
  watchSharedRuns(read: () => { answered: number; abandoned: number }) {
    new Counter({
      name: 'prode_graphql_shared_runs_total',
      help:
        'Queries executed with repeated objects completed once: answered, or abandoned on an error and executed ' +
        'again by graphql-jit',
      labelNames: ['result'],
      registers: [this.registry],
      collect() {
        const { answered, abandoned } = read();
        this.reset();
        this.inc({ result: 'answered' }, answered);
        this.inc({ result: 'abandoned' }, abandoned);
      },
    });
  }

  /** PostgreSQL statement texts the process keeps prepared (src/db/statement-names.ts). */
  watchPreparedStatements(read: () => number) {
    new Gauge({
      name: 'prode_db_prepared_statements',
      help:
        'PostgreSQL statement texts kept prepared on each connection ' +
        `(at most ${MAX_NAMED_STATEMENTS}; DB_PREPARED_STATEMENTS)`,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** Operations executing and waiting for a slot (src/graphql/execution-slots.ts), read when /metrics is scraped. */
  watchExecutions(read: () => ExecutionCounts) {
    const registers = [this.registry];
    new Gauge({
      name: 'prode_graphql_executions_running',
      help: 'GraphQL operations executing now (REST routes included)',
      registers,
      collect() {
        this.set(read().running);
      },
    });
    new Gauge({
      name: 'prode_graphql_executions_waiting',
      help: 'GraphQL operations waiting for an execution slot (GRAPHQL_MAX_CONCURRENT_EXECUTIONS)',
      registers,
      collect() {
        this.set(read().waiting);
      },
    });
    new Counter({
      name: 'prode_graphql_execution_waits_total',
      help: 'GraphQL operations that waited for an execution slot',
      registers,
      collect() {
        this.reset();
        this.inc(read().waits);
      },
    });
    new Counter({
      name: 'prode_graphql_executions_dropped_total',
      help: 'Queued GraphQL operations not run: their request had timed out or its client had gone by their turn',
      registers,
      collect() {
        this.reset();
        this.inc(read().dropped);
      },
    });
    new Counter({
      name: 'prode_graphql_executions_answered_waiting_total',
      help: 'Queued GraphQL operations answered from the response cache while they waited: an identical one was kept',
      registers,
      collect() {
        this.reset();
        this.inc(read().answeredWaiting);
      },
    });
    new Counter({
      name: 'prode_graphql_execution_wait_seconds_total',
      help: 'Seconds GraphQL operations waited for an execution slot, in all',
      registers,
      collect() {
        this.reset();
        this.inc(read().waitedMs / 1000);
      },
    });
  }

  /** The response cache's counters and size, read when /metrics is scraped. */
  watchResponseCache(
    read: () => {
      hits: number;
      misses: number;
      stores: number;
      discards: number;
      recomputedSame: number;
      recomputedChanged: number;
      entries: number;
      bytes: number;
      sharedTaken: number;
      sharedRows: number;
    },
  ) {
    const registers = [this.registry];
    new Counter({
      name: 'prode_response_cache_lookups_total',
      help: 'Response cache lookups of cacheable reads, by result (hit, miss)',
      labelNames: ['result'],
      registers,
      collect() {
        const s = read();
        this.reset();
        this.inc({ result: 'hit' }, s.hits);
        this.inc({ result: 'miss' }, s.misses);
      },
    });
    new Counter({
      name: 'prode_response_cache_stores_total',
      help: 'Answers kept by the response cache',
      registers,
      collect() {
        this.reset();
        this.inc(read().stores);
      },
    });
    new Counter({
      name: 'prode_response_cache_discards_total',
      help: 'Answers computed but not kept: a table they read was written while they were computed',
      registers,
      collect() {
        this.reset();
        this.inc(read().discards);
      },
    });
    new Counter({
      name: 'prode_response_cache_recomputed_total',
      help:
        'Answers kept in place of one a write had made stale, by whether they differ from it (same: the write did ' +
        'not change this answer)',
      labelNames: ['answer'],
      registers,
      collect() {
        const s = read();
        this.reset();
        this.inc({ answer: 'same' }, s.recomputedSame);
        this.inc({ answer: 'changed' }, s.recomputedChanged);
      },
    });
    new Gauge({
      name: 'prode_response_cache_entries',
      help: 'Answers in the response cache',
      registers,
      collect() {
        this.set(read().entries);
      },
    });
    new Gauge({
      name: 'prode_response_cache_bytes',
      help: 'Approximate bytes of answers in the response cache',
      registers,
      collect() {
        this.set(read().bytes);
      },
    });
    new Counter({
      name: 'prode_response_cache_shared_reads_total',
      help: "Loader answers a miss took from an earlier miss's reads at the same write counts, instead of a statement",
      registers,
      collect() {
        this.reset();
        this.inc(read().sharedTaken);
      },
    });
    new Gauge({
      name: 'prode_response_cache_shared_rows',
      help: 'Rows kept for the misses to share',
      registers,
      collect() {
        this.set(read().sharedRows);
      },
    });
  }

  /** Subscriptions over WebSocket and the live feed (src/graphql/live-server.ts, src/live/). */
  watchLive(read: () => LiveFigures) {
    const registers = [this.registry];
    const gauge = (name: string, help: string, pick: (f: LiveFigures) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(read()));
        },
      });
    const counter = (name: string, help: string, pick: (f: LiveFigures) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(pick(read()));
        },
      });
    gauge('prode_live_sockets', 'Open WebSocket connections', (f) => f.sockets);
    gauge('prode_live_subscriptions', 'Active subscriptions', (f) => f.subscriptions);
    counter('prode_live_sockets_opened_total', 'WebSocket connections accepted', (f) => f.opened);
    new Counter({
      name: 'prode_live_sockets_refused_total',
      help: 'WebSocket upgrades refused, by reason (per_address, total, draining, path)',
      labelNames: ['reason'],
      registers,
      collect() {
        this.reset();
        for (const [reason, n] of Object.entries(read().refused)) this.inc({ reason }, n);
      },
    });
    counter('prode_live_events_published_total', 'Live events this replica published', (f) => f.published);
    counter('prode_live_publish_failures_total', 'Live events that could not be published', (f) => f.publishFailures);
    counter('prode_live_events_received_total', 'Live events heard from the feed', (f) => f.received);
    counter('prode_live_messages_sent_total', 'Subscription results sent to clients', (f) => f.sent);
    counter('prode_live_feed_lost_total', 'Times the feed was lost and subscribers told to refetch', (f) => f.missed);
    counter(
      'prode_live_executions_total',
      'Subscription documents executed for an event',
      (f) => f.executions.executions,
    );
    counter(
      'prode_live_executions_shared_total',
      "Answers to an event sent from an identical subscription's execution",
      (f) => f.executions.shared,
    );
    counter(
      'prode_live_events_dropped_total',
      'Answers to an event dropped: too many executions waiting (LIVE_MAX_QUEUED_EXECUTIONS)',
      (f) => f.executions.dropped,
    );
    new Counter({
      name: 'prode_live_events_over_budget_total',
      help: 'Answers to an event refused for a budget, by which (socket, address, process)',
      labelNames: ['budget'],
      registers,
      collect() {
        this.reset();
        for (const [budget, n] of Object.entries(read().executions.overBudget)) this.inc({ budget }, n);
      },
    });
    gauge('prode_live_executions_running', 'Event executions running', (f) => f.executions.running);
    gauge('prode_live_executions_waiting', 'Event executions waiting their turn', (f) => f.executions.waiting);
    gauge(
      'prode_live_objects_in_flight',
      'Objects held by event executions running',
      (f) => f.executions.objectsInFlight,
    );
  }

  observeRequest(r: {
    method: string;
    route: string;
    status: number;
    seconds: number;
    statements: number;
    outcome: RequestOutcome;
  }) {
    this.requests.inc({ method: r.method, route: r.route, status: String(r.status) });
    this.duration.observe({ method: r.method, route: r.route }, r.seconds);
    this.statements.inc({ route: r.route }, r.statements);
    this.statementsPerRequest.observe({ route: r.route }, r.statements);
    for (const code of new Set(r.outcome.errorCodes)) this.errors.inc({ code: KNOWN_CODE.test(code) ? code : 'OTHER' });
  }

  observeOperation(name: string | null | undefined, ok: boolean) {
    this.operations.inc({ operation: this.operationLabel(name), outcome: ok ? 'ok' : 'error' });
  }

  private operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'other';
    if (this.operationLabels.has(name)) return name;
    if (this.operationLabels.size >= MAX_OPERATION_LABELS) return 'other';
    this.operationLabels.add(name);
    return name;
  }
}

export interface LiveExecutionFigures {
  /** Subscription documents executed for an event. */
  executions: number;
  /** Answers to an event sent from another identical subscription's execution. */
  shared: number;
  /** Answers refused for a budget, by which (socket, address, process). */
  overBudget: Record<string, number>;
  /** Events dropped because the queue was full. */
  dropped: number;
  running: number;
  waiting: number;
  objectsInFlight: number;
}

export interface LiveFigures {
  /** Event executions (src/graphql/live-executions.ts). */
  executions: LiveExecutionFigures;
  sockets: number;
  subscriptions: number;
  opened: number;
  refused: Record<string, number>;
  sent: number;
  published: number;
  publishFailures: number;
  received: number;
  missed: number;
}
