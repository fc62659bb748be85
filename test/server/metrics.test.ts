// What /metrics publishes: every metric's name, type, help text and label names, after traffic that touches each
// source (requests, execution slots, response cache, rescoring, live sockets). Dashboards and alerts key on these.
// A source is read once per scrape, and one that cannot be read (a database outage) keeps its last figures.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/observability/metrics.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';

/** name, type, label names (sorted; a histogram's `le` left out), help. */
type Published = [name: string, type: string, labels: string[], help: string];

// The process metrics prom-client adds (prode_process_*, prode_nodejs_*) differ by platform and Node version.
const DEFAULT_METRIC = /^prode_(process|nodejs)_/;

const PUBLISHED: Published[] = [
  [
    'prode_db_prepared_statements',
    'gauge',
    [],
    'PostgreSQL statement texts kept prepared on each connection (at most 200; DB_PREPARED_STATEMENTS)',
  ],
  [
    'prode_errors_total',
    'counter',
    ['code'],
    'Error responses by error code (REST body code or GraphQL extensions.code)',
  ],
  [
    'prode_graphql_execution_wait_seconds_total',
    'counter',
    [],
    'Seconds GraphQL operations waited for an execution slot, in all',
  ],
  ['prode_graphql_execution_waits_total', 'counter', [], 'GraphQL operations that waited for an execution slot'],
  [
    'prode_graphql_executions_answered_waiting_total',
    'counter',
    [],
    'Queued GraphQL operations served from the response cache while they waited: an identical one was cached',
  ],
  [
    'prode_graphql_executions_dropped_total',
    'counter',
    [],
    'Queued GraphQL operations not run: their request had timed out or its client had gone by their turn',
  ],
  ['prode_graphql_executions_running', 'gauge', [], 'GraphQL operations executing now (REST routes included)'],
  [
    'prode_graphql_executions_waiting',
    'gauge',
    [],
    'GraphQL operations waiting for an execution slot (GRAPHQL_MAX_CONCURRENT_EXECUTIONS)',
  ],
  [
    'prode_graphql_operations_total',
    'counter',
    ['operation', 'outcome'],
    "GraphQL operations (incl. the REST routes' stored ones) by first root field and outcome",
  ],
  [
    'prode_graphql_shared_runs_total',
    'counter',
    ['result'],
    'Queries executed with repeated objects completed once: answered, or abandoned on an error and executed ' +
      'again by graphql-jit',
  ],
  [
    'prode_http_request_duration_seconds',
    'histogram',
    ['method', 'route'],
    'Time from request to last byte of the response',
  ],
  [
    'prode_http_requests_total',
    'counter',
    ['method', 'route', 'status'],
    'HTTP requests served, by route template and status',
  ],
  [
    'prode_live_event_scopes_total',
    'counter',
    [],
    'Request scopes made for subscription events (a copy of a shared execution makes none)',
  ],
  [
    'prode_live_events_dropped_total',
    'counter',
    [],
    'Responses to an event dropped: too many executions waiting (LIVE_MAX_QUEUED_EXECUTIONS)',
  ],
  [
    'prode_live_events_over_budget_total',
    'counter',
    ['budget'],
    'Responses to an event refused for a budget, by which (socket, address, process)',
  ],
  ['prode_live_events_published_total', 'counter', [], 'Live events this replica published'],
  ['prode_live_events_received_total', 'counter', [], 'Live events heard from the feed'],
  ['prode_live_executions_running', 'gauge', [], 'Event executions running'],
  [
    'prode_live_executions_shared_total',
    'counter',
    [],
    "Responses to an event sent from an identical subscription's execution",
  ],
  ['prode_live_executions_total', 'counter', [], 'Subscription documents executed for an event'],
  ['prode_live_executions_waiting', 'gauge', [], 'Event executions waiting their turn'],
  ['prode_live_feed_lost_total', 'counter', [], 'Times the feed was lost and subscribers told to refetch'],
  ['prode_live_messages_sent_total', 'counter', [], 'Subscription results sent to clients'],
  ['prode_live_objects_in_flight', 'gauge', [], 'Objects held by event executions running'],
  ['prode_live_publish_failures_total', 'counter', [], 'Live events that could not be published'],
  ['prode_live_sockets', 'gauge', [], 'Open WebSocket connections'],
  ['prode_live_sockets_opened_total', 'counter', [], 'WebSocket connections accepted'],
  [
    'prode_live_sockets_refused_total',
    'counter',
    ['reason'],
    'WebSocket upgrades refused, by reason (per_address, total, draining, path)',
  ],
  [
    'prode_live_sql_statements_total',
    'counter',
    [],
    'SQL statements sent by event executions (per event: grows with companies, not subscribers)',
  ],
  ['prode_live_subscriptions', 'gauge', [], 'Active subscriptions'],
  [
    'prode_rescore_job_oldest_age_seconds',
    'gauge',
    [],
    'How long the oldest waiting rescoring job has waited (0 when none does)',
  ],
  ['prode_rescore_job_seconds_total', 'counter', [], 'Time spent running rescoring jobs in this process'],
  [
    'prode_rescore_jobs_pending',
    'gauge',
    [],
    'Rescoring jobs waiting in the database (every process); results whose points are not out yet',
  ],
  [
    'prode_rescore_jobs_total',
    'counter',
    ['result'],
    'Rescoring jobs this process ran, by result (a failed one is retried later)',
  ],
  ['prode_response_cache_bytes', 'gauge', [], 'Approximate bytes of responses in the response cache'],
  [
    'prode_response_cache_discards_total',
    'counter',
    [],
    'Responses computed but not cached: a table they read was written while they were computed',
  ],
  ['prode_response_cache_entries', 'gauge', [], 'Responses in the response cache'],
  [
    'prode_response_cache_lookups_total',
    'counter',
    ['result'],
    'Response cache lookups of cacheable reads, by result (hit, miss)',
  ],
  [
    'prode_response_cache_recomputed_total',
    'counter',
    ['answer'],
    'Responses cached in place of one a write had made stale, by whether they differ from it (same: the write did ' +
      'not change this response)',
  ],
  [
    'prode_response_cache_shared_reads_total',
    'counter',
    [],
    "Loader results a miss took from an earlier miss's reads at the same table versions, instead of a statement",
  ],
  ['prode_response_cache_shared_rows', 'gauge', [], 'Rows held for the misses to share'],
  ['prode_response_cache_stores_total', 'counter', [], 'Responses cached by the response cache'],
  ['prode_sql_statements_per_request', 'histogram', ['route'], 'SQL statements per request, by route'],
  ['prode_sql_statements_total', 'counter', ['route'], 'SQL statements sent while serving requests, by route'],
];

/** Only PostgreSQL keeps statements prepared. */
const POSTGRESQL_ONLY = new Set(['prode_db_prepared_statements']);

function catalogue(text: string): Published[] {
  const metrics = new Map<string, { type: string; help: string; labels: Set<string> }>();
  let current: { type: string; help: string; labels: Set<string> } | undefined;
  for (const line of text.split('\n')) {
    const help = /^# HELP (\S+) (.*)$/.exec(line);
    if (help) {
      current = { type: '', help: help[2], labels: new Set() };
      metrics.set(help[1], current);
      continue;
    }
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      current = metrics.get(type[1]);
      if (!current) throw new Error(`TYPE without HELP: ${line}`);
      current.type = type[2];
      continue;
    }
    if (!line || !current) continue;
    const labels = /\{(.*)\}/.exec(line)?.[1] ?? '';
    for (const [, label] of labels.matchAll(/([A-Za-z_]\w*)="(?:[^"\\]|\\.)*"/g)) {
      if (!(current.type === 'histogram' && label === 'le')) current.labels.add(label);
    }
  }
  return [...metrics]
    .filter(([name]) => !DEFAULT_METRIC.test(name))
    .map(([name, m]): Published => [name, m.type, [...m.labels].sort(), m.help])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

let s: TestServer;
beforeAll(async () => {
  // Full engine: the published set includes the engine's own figures (response cache, shared runs).
  s = await startTestServer({ env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '8' } });
});
afterAll(async () => s?.close());

describe(`/metrics (${suiteProvider})`, () => {
  it('publishes the same metrics, types, help texts and labels', async () => {
    const token = await s.login('player1@demo.test');
    await s.gql('query Me { me { id } }', {}, bearer(token));
    await s.gql('query Me { me { id } }', {}, bearer(token));
    await fetch(`${s.url}/posts/999999`, { headers: { ...bearer(token), 'x-app-company': '1' } });
    await fetch(`${s.url}/nowhere`);
    // A WebSocket upgrade on a path other than /graphql is refused (prode_live_sockets_refused_total{reason}).
    await new Promise<void>((resolve, reject) => {
      const upgrade = request(`${s.url}/nowhere`, { headers: { connection: 'Upgrade', upgrade: 'websocket' } });
      upgrade.on('response', (res) => res.resume().on('end', resolve));
      upgrade.on('error', reject);
      upgrade.end();
    });

    const published = catalogue(await (await fetch(`${s.url}/metrics`)).text());
    const expected = PUBLISHED.filter(([name]) => suiteProvider === 'postgresql' || !POSTGRESQL_ONLY.has(name));
    expect(published).toEqual(expected);
  });
});

describe('a source of metrics', () => {
  it('is read once per scrape for all its metrics, and a failed read leaves them at their last figures', async () => {
    const m = new Metrics();
    let reads = 0;
    let pending: { count: number; oldest: Date | null } | Error = { count: 3, oldest: new Date(Date.now() - 5000) };
    m.watch('rescoreQueue', async () => {
      reads++;
      if (pending instanceof Error) throw pending;
      return pending;
    });
    const scrape = async () => {
      const text = await m.registry.metrics();
      const figure = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
      return { count: figure('prode_rescore_jobs_pending'), age: figure('prode_rescore_job_oldest_age_seconds') };
    };
    const first = await scrape();
    expect(first.count).toBe(3);
    expect(first.age).toBeGreaterThanOrEqual(5);
    expect(reads).toBe(1);
    // The database is out: the page is still served, with the figures of the last scrape that could read them.
    pending = new Error('the database is unavailable');
    expect(await scrape()).toEqual(first);
    expect(reads).toBe(2);
    pending = { count: 0, oldest: null };
    expect(await scrape()).toEqual({ count: 0, age: 0 });
  });
});
