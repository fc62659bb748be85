// Prometheus metrics, one registry per app (tests build several apps in one process). The requests' metrics
// (requestMetrics) are observed as each is served; every other metric is a row of SOURCES, read from its source
// when /metrics is scraped.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { MAX_NAMED_STATEMENTS } from '../engine/db/statement-names.ts';
import type { RequestOutcome } from './request-outcome.ts';

/** The execution slots' counts /metrics reads (src/graphql/execution-slots.ts's stats() gives them). */
export interface ExecutionCounts {
  running: number;
  waiting: number;
  waits: number;
  waitedMs: number;
  /** Queued work not run because, by its turn, nobody was waiting for it any more. */
  dropped: number;
  /** Queued work served while it waited (whileWaiting), which then left the queue. */
  answeredWaiting: number;
}

/** The response cache's counters and size (src/engine/cache/response-cache.ts). */
export interface ResponseCacheFigures {
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
}

export interface LiveExecutionFigures {
  /** Subscription documents executed for an event. */
  executions: number;
  /** Responses to an event sent from another identical subscription's execution. */
  shared: number;
  /** Scopes made for events: one per execution that ran or caller refused, none for a shared copy. */
  scopes: number;
  /** SQL statements the executions sent (reads shared by an event's subscribers count once). */
  statements: number;
  /** Responses refused for a budget, by which (socket, address, process). */
  overBudget: Record<string, number>;
  /** Events dropped because the queue was full. */
  dropped: number;
  running: number;
  waiting: number;
  objectsInFlight: number;
}

export interface LiveFigures {
  /** Event executions (src/graphql/subscriptions/executions.ts). */
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

/** The metrics each served request adds to (observeRequest, observeOperation). */
function requestMetrics(registers: Registry[]) {
  return {
    requests: new Counter({
      name: 'prode_http_requests_total',
      help: 'HTTP requests served, by route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    duration: new Histogram({
      name: 'prode_http_request_duration_seconds',
      help: 'Time from request to last byte of the response',
      labelNames: ['method', 'route'] as const,
      registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
    operations: new Counter({
      name: 'prode_graphql_operations_total',
      help: "GraphQL operations (incl. the REST routes' stored ones) by first root field and outcome",
      labelNames: ['operation', 'outcome'] as const,
      registers,
    }),
    errors: new Counter({
      name: 'prode_errors_total',
      help: 'Error responses by error code (REST body code or GraphQL extensions.code)',
      labelNames: ['code'] as const,
      registers,
    }),
    statements: new Counter({
      name: 'prode_sql_statements_total',
      help: 'SQL statements sent while serving requests, by route',
      labelNames: ['route'] as const,
      registers,
    }),
    statementsPerRequest: new Histogram({
      name: 'prode_sql_statements_per_request',
      help: 'SQL statements per request, by route',
      labelNames: ['route'] as const,
      registers,
      buckets: [0, 1, 2, 4, 8, 16, 32, 64, 128, 256],
    }),
  };
}

/** A metric read from its source's figures: one number, or one number per value of its label. */
interface Row<F> {
  type: 'counter' | 'gauge';
  name: string;
  help: string;
  label?: string;
  read: (figures: F) => number | Record<string, number>;
}

const gauge = <F>(name: string, help: string, read: (f: F) => number): Row<F> => ({ type: 'gauge', name, help, read });
/** A counter's read is the source's running total: the source counts, /metrics shows its count. */
function counter<F>(name: string, help: string, read: (f: F) => number): Row<F>;
function counter<F>(name: string, help: string, read: (f: F) => Record<string, number>, label: string): Row<F>;
function counter<F>(name: string, help: string, read: Row<F>['read'], label?: string): Row<F> {
  return { type: 'counter', name, help, read, label };
}

/** A source's rows: the figures its read gives, typed once. */
const rows = <F>(...list: Row<F>[]) => list;

/** Every metric read when /metrics is scraped, by the source it is read from (Metrics.watch attaches a source). */
const SOURCES = {
  /** Rescoring jobs this process ran (src/app/rescore-runner.ts). */
  rescoring: rows<{ done: number; failed: number; seconds: number }>(
    counter(
      'prode_rescore_jobs_total',
      'Rescoring jobs this process ran, by result (a failed one is retried later)',
      (f) => ({ done: f.done, failed: f.failed }),
      'result',
    ),
    counter('prode_rescore_job_seconds_total', 'Time spent running rescoring jobs in this process', (f) => f.seconds),
  ),
  /** Rescoring jobs waiting in the database, every process's (src/game/rescore-jobs.ts). */
  rescoreQueue: rows<{ count: number; oldest: Date | null }>(
    gauge(
      'prode_rescore_jobs_pending',
      'Rescoring jobs waiting in the database (every process); results whose points are not out yet',
      (f) => f.count,
    ),
    gauge(
      'prode_rescore_job_oldest_age_seconds',
      'How long the oldest waiting rescoring job has waited (0 when none does)',
      (f) => (f.oldest ? Math.max(0, (Date.now() - f.oldest.getTime()) / 1000) : 0),
    ),
  ),
  /** Queries the shared-subtree executor completed, or gave back to graphql-jit
   * (src/engine/graphql/jit-executor.ts). */
  sharedRuns: rows<{ answered: number; abandoned: number }>(
    counter(
      'prode_graphql_shared_runs_total',
      'Queries executed with repeated objects completed once: answered, or abandoned on an error and executed ' +
        'again by graphql-jit',
      (f) => ({ answered: f.answered, abandoned: f.abandoned }),
      'result',
    ),
  ),
  /** PostgreSQL statement texts the process keeps prepared (src/engine/db/statement-names.ts). */
  preparedStatements: rows<number>(
    gauge(
      'prode_db_prepared_statements',
      'PostgreSQL statement texts kept prepared on each connection ' +
        `(at most ${MAX_NAMED_STATEMENTS}; DB_PREPARED_STATEMENTS)`,
      (n) => n,
    ),
  ),
  /** Operations executing and waiting for a slot (src/graphql/execution-slots.ts). */
  executions: rows<ExecutionCounts>(
    gauge(
      'prode_graphql_executions_running',
      'GraphQL operations executing now (REST routes included)',
      (f) => f.running,
    ),
    gauge(
      'prode_graphql_executions_waiting',
      'GraphQL operations waiting for an execution slot (GRAPHQL_MAX_CONCURRENT_EXECUTIONS)',
      (f) => f.waiting,
    ),
    counter(
      'prode_graphql_execution_waits_total',
      'GraphQL operations that waited for an execution slot',
      (f) => f.waits,
    ),
    counter(
      'prode_graphql_executions_dropped_total',
      'Queued GraphQL operations not run: their request had timed out or its client had gone by their turn',
      (f) => f.dropped,
    ),
    counter(
      'prode_graphql_executions_answered_waiting_total',
      'Queued GraphQL operations served from the response cache while they waited: an identical one was cached',
      (f) => f.answeredWaiting,
    ),
    counter(
      'prode_graphql_execution_wait_seconds_total',
      'Seconds GraphQL operations waited for an execution slot, in all',
      (f) => f.waitedMs / 1000,
    ),
  ),
  /** The response cache (src/engine/cache/response-cache.ts). */
  responseCache: rows<ResponseCacheFigures>(
    counter(
      'prode_response_cache_lookups_total',
      'Response cache lookups of cacheable reads, by result (hit, miss)',
      (f) => ({ hit: f.hits, miss: f.misses }),
      'result',
    ),
    counter('prode_response_cache_stores_total', 'Responses cached by the response cache', (f) => f.stores),
    counter(
      'prode_response_cache_discards_total',
      'Responses computed but not cached: a table they read was written while they were computed',
      (f) => f.discards,
    ),
    counter(
      'prode_response_cache_recomputed_total',
      'Responses cached in place of one a write had made stale, by whether they differ from it (same: the write did ' +
        'not change this response)',
      (f) => ({ same: f.recomputedSame, changed: f.recomputedChanged }),
      'answer',
    ),
    gauge('prode_response_cache_entries', 'Responses in the response cache', (f) => f.entries),
    gauge('prode_response_cache_bytes', 'Approximate bytes of responses in the response cache', (f) => f.bytes),
    counter(
      'prode_response_cache_shared_reads_total',
      "Loader results a miss took from an earlier miss's reads at the same table versions, instead of a statement",
      (f) => f.sharedTaken,
    ),
    gauge('prode_response_cache_shared_rows', 'Rows held for the misses to share', (f) => f.sharedRows),
  ),
  /** Subscriptions over WebSocket and the live feed (src/graphql/subscriptions/server.ts, src/live/). */
  live: rows<LiveFigures>(
    gauge('prode_live_sockets', 'Open WebSocket connections', (f) => f.sockets),
    gauge('prode_live_subscriptions', 'Active subscriptions', (f) => f.subscriptions),
    counter('prode_live_sockets_opened_total', 'WebSocket connections accepted', (f) => f.opened),
    counter(
      'prode_live_sockets_refused_total',
      'WebSocket upgrades refused, by reason (per_address, total, draining, path)',
      (f) => f.refused,
      'reason',
    ),
    counter('prode_live_events_published_total', 'Live events this replica published', (f) => f.published),
    counter('prode_live_publish_failures_total', 'Live events that could not be published', (f) => f.publishFailures),
    counter('prode_live_events_received_total', 'Live events heard from the feed', (f) => f.received),
    counter('prode_live_messages_sent_total', 'Subscription results sent to clients', (f) => f.sent),
    counter('prode_live_feed_lost_total', 'Times the feed was lost and subscribers told to refetch', (f) => f.missed),
    counter(
      'prode_live_executions_total',
      'Subscription documents executed for an event',
      (f) => f.executions.executions,
    ),
    counter(
      'prode_live_executions_shared_total',
      "Responses to an event sent from an identical subscription's execution",
      (f) => f.executions.shared,
    ),
    counter(
      'prode_live_event_scopes_total',
      'Request scopes made for subscription events (a copy of a shared execution makes none)',
      (f) => f.executions.scopes,
    ),
    counter(
      'prode_live_sql_statements_total',
      'SQL statements sent by event executions (per event: grows with companies, not subscribers)',
      (f) => f.executions.statements,
    ),
    counter(
      'prode_live_events_dropped_total',
      'Responses to an event dropped: too many executions waiting (LIVE_MAX_QUEUED_EXECUTIONS)',
      (f) => f.executions.dropped,
    ),
    counter(
      'prode_live_events_over_budget_total',
      'Responses to an event refused for a budget, by which (socket, address, process)',
      (f) => f.executions.overBudget,
      'budget',
    ),
    gauge('prode_live_executions_running', 'Event executions running', (f) => f.executions.running),
    gauge('prode_live_executions_waiting', 'Event executions waiting their turn', (f) => f.executions.waiting),
    gauge(
      'prode_live_objects_in_flight',
      'Objects held by event executions running',
      (f) => f.executions.objectsInFlight,
    ),
  ),
};

type Sources = typeof SOURCES;
/** What a source's read must give: every field its rows read. */
type FiguresOf<K extends keyof Sources> = Sources[K] extends Row<infer F>[] ? F : never;

// Labels are root field names (bounded by the schema); the cap is a second fence.
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_OPERATION_LABELS = 200;
const KNOWN_CODE = /^[A-Z][A-Z_]{2,40}$/;

export class Metrics {
  readonly registry = new Registry();
  private readonly observed: ReturnType<typeof requestMetrics>;
  private readonly operationLabels = new Set<string>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'prode_' });
    this.observed = requestMetrics([this.registry]);
  }

  /**
   * Lets go of every metric and its source when the app closes: prom-client's garbage-collection observer is never
   * disconnected, and would otherwise keep the registry and everything its sources read alive for the process.
   */
  close(): void {
    this.registry.clear();
  }

  /**
   * Publishes the source's rows of SOURCES, read when /metrics is scraped. One read serves all its rows (a scrape
   * collects every metric at once); a read that fails (a database outage) leaves them at their last figures rather
   * than failing the whole page.
   */
  watch<K extends keyof Sources>(source: K, read: () => FiguresOf<K> | Promise<FiguresOf<K>>): void {
    const registers = [this.registry];
    let reading: Promise<FiguresOf<K> | null> | null = null;
    const figures = () =>
      (reading ??= (async () => read())()
        .catch(() => null)
        .finally(() => (reading = null)));
    for (const row of SOURCES[source] as Row<FiguresOf<K>>[]) {
      const label = row.label ?? '';
      // A counter shows the source's running total: set like a gauge's figure, by way of reset and inc.
      async function collect(this: Counter | Gauge) {
        const f = await figures();
        if (f === null) return;
        const value = row.read(f);
        const put = (labels: Record<string, string>, n: number) =>
          this instanceof Counter ? this.inc(labels, n) : this.set(labels, n);
        this.reset();
        if (typeof value === 'number') put({}, value);
        else for (const [key, n] of Object.entries(value)) put({ [label]: key }, n);
      }
      const config = { name: row.name, help: row.help, labelNames: row.label ? [row.label] : [], registers, collect };
      if (row.type === 'counter') new Counter(config);
      else new Gauge(config);
    }
  }

  observeRequest(r: {
    method: string;
    route: string;
    status: number;
    seconds: number;
    statements: number;
    outcome: RequestOutcome;
  }) {
    const m = this.observed;
    m.requests.inc({ method: r.method, route: r.route, status: String(r.status) });
    m.duration.observe({ method: r.method, route: r.route }, r.seconds);
    m.statements.inc({ route: r.route }, r.statements);
    m.statementsPerRequest.observe({ route: r.route }, r.statements);
    for (const code of new Set(r.outcome.errorCodes)) m.errors.inc({ code: KNOWN_CODE.test(code) ? code : 'OTHER' });
  }

  observeOperation(name: string | null | undefined, ok: boolean) {
    this.observed.operations.inc({ operation: this.operationLabel(name), outcome: ok ? 'ok' : 'error' });
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
