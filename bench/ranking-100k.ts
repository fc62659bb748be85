// `npm run bench:ranking [-- --users 100000] [--fresh] [--results 5] [--in-request] [--report]`: a company of N
// users predicting every finished match of the demo tournament, then timing ranking pages and the caller's standing
// under every tie rule and membership rule side by side (--report writes them to bench/RANKINGS.md, on PostgreSQL
// bench/RANKINGS-postgresql.md), and setMatchResult on one of those matches (N predictions rescored, their standings
// moved, N notifications): the first call of the process (cold) and the median of the next ones (warm), each a new
// result; the match's result is put back and the benchmark's notifications removed after. With the shipped
// RESCORE_IN_REQUEST_MAX_PREDICTIONS the request commits the result and a job rescores it after, then the standings
// are vacuumed as the runner does (each timed); --in-request rescores inside the request.
// Uses DATABASE_URL, else a SQLite file under bench/data/ (kept for the next run). Prints statements per call and
// latency (median and max of 7 runs).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { availableParallelism, loadavg } from 'node:os';
import { seedDemo } from '../prisma/seed/demo-seed.ts';
import type { DatabaseTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { runWithSqlStats } from '../src/db/sql-stats.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../src/domain/defaults.ts';
import { rankingOf, rankingPage } from '../src/game/ranking-query.ts';
import { setMatchResult } from '../src/app/game.ts';
import { RESCORE_BUSY, runDueRescore, vacuumStandings } from '../src/game/rescore-jobs.ts';
import { loadConfig } from '../src/config.ts';
import { ObjectBudget } from '../src/app/object-budget.ts';
import { RequestScope } from '../src/app/scope.ts';
import { resolveRequestAuth } from '../src/auth/request-auth.ts';
import { signAccessToken } from '../src/auth/tokens.ts';
import { Loaders } from '../src/loaders/registry.ts';
import { firstLegsOf } from '../src/game/first-legs.ts';
import { readScoringSettings } from '../src/domain/scoring-settings.ts';
import { scorePrediction } from '../src/domain/scoring.ts';
import { rebuildStandings } from '../src/game/standings.ts';
import { batched, iso, openWriter } from './writers.ts';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    fresh: { type: 'boolean', default: false },
    results: { type: 'string', default: '5' },
    'in-request': { type: 'boolean', default: false },
    report: { type: 'boolean', default: false },
  },
});
const USERS = Number(values.users);
const url = process.env.DATABASE_URL;
let target: DatabaseTarget;
if (url) target = { provider: 'postgresql', url };
else {
  mkdirSync('bench/data', { recursive: true });
  // Generating 100,000 users' predictions and scoring them takes minutes: reused unless --fresh.
  if (values.fresh) rmSync('bench/data/ranking.db', { force: true });
  target = { provider: 'sqlite', file: `${process.cwd()}/bench/data/ranking.db` };
}
await migrateDatabase(target);
const secondsSince = (t0: number) => ((Date.now() - t0) / 1000).toFixed(1);
const db = await openDatabase(target, { poolMax: 4 });
const prisma = db.prisma;
if ((await prisma.company.count()) === 0) await seedDemo(prisma);
const tournament = await prisma.tournament.findFirstOrThrow({ where: { externalId: 'demo:prode-demo-cup' } });
const matches = await prisma.match.findMany({ where: { tournamentId: tournament.id, status: 'FINISHED' } });

let company = await prisma.company.findFirst({ where: { code: 'BENCH' } });
if (company && (await prisma.user.count({ where: { companyId: company.id } })) !== USERS) {
  throw new Error(`bench/data/ranking.db holds another number of users than --users ${USERS}: rerun with --fresh`);
}
if (!company) {
  const t0 = Date.now();
  company = await prisma.company.create({
    data: { ...DEFAULT_COMPANY_JSON, name: 'Bench Co', code: 'BENCH', appPath: 'bench', maxUsersAmount: USERS },
  });
  await prisma.companyTournament.create({ data: { companyId: company.id, tournamentId: tournament.id } });
  await generateCompany(company, USERS);
  // Statistics and the visibility map, as autovacuum would leave them a minute later: a freshly loaded table has
  // neither, and PostgreSQL then plans the ranking's aggregates blind (minutes) and reads the heap for index scans.
  if (db.provider === 'postgresql') await prisma.$executeRawUnsafe('VACUUM ANALYZE');
  console.log(`generated ${USERS} users, ${USERS * matches.length} predictions in ${secondsSince(t0)} s`);
}

/**
 * USERS players predicting every finished match, written through the driver (bench/writers.ts) with explicit ids
 * after the seed's, scored with the company's rules as rescoring would, then the standings built from them.
 */
async function generateCompany(co: { id: number; scoringSettings: unknown }, users: number) {
  const [maxUser, maxPrediction] = await Promise.all([
    prisma.user.aggregate({ _max: { id: true } }),
    prisma.prediction.aggregate({ _max: { id: true } }),
  ]);
  const firstUser = (maxUser._max.id ?? 0) + 1;
  const firstPrediction = (maxPrediction._max.id ?? 0) + 1;
  const now = iso(new Date());
  const json = JSON.stringify;
  const writer = await openWriter(target);
  await batched(
    writer,
    'users',
    'User',
    [
      'id',
      'companyId',
      'name',
      'email',
      'externalId',
      'loginProviderId',
      'extraFields',
      'notificationSettings',
      'createdAt',
      'updatedAt',
    ],
    users,
    (i) => [
      firstUser + i,
      co.id,
      `User ${String(i).padStart(6, '0')}`,
      `u${i}@bench.test`,
      `b${i}`,
      `b${i}`,
      json(DEFAULT_USER_JSON.extraFields),
      json(DEFAULT_USER_JSON.notificationSettings),
      now,
      now,
    ],
  );
  const rules = readScoringSettings(co.scoringSettings);
  const firstLegs = await firstLegsOf(prisma, matches);
  await batched(
    writer,
    'predictions',
    'Prediction',
    [
      'id',
      'userId',
      'matchId',
      'homeTeamGoals',
      'awayTeamGoals',
      'status',
      'points',
      'exactHit',
      'outcomeHit',
      'createdAt',
      'updatedAt',
    ],
    users * matches.length,
    (i) => {
      const [u, j] = [Math.floor(i / matches.length), i % matches.length];
      const match = matches[j];
      // A fixed spread (users in blocks of 1,000), so every run scores the same predictions and its figures compare.
      const prediction = { homeTeamGoals: (u + j) % 4, awayTeamGoals: (u - (u % 1000) + (u % 1000) * j) % 3 };
      const score = scorePrediction(prediction, match, rules, firstLegs.get(match.id) ?? null);
      return [
        firstPrediction + i,
        firstUser + u,
        match.id,
        prediction.homeTeamGoals,
        prediction.awayTeamGoals,
        score.status,
        score.points,
        score.exactHit,
        score.outcomeHit,
        now,
        now,
      ];
    },
  );
  await writer.close();
  await rebuildStandings(prisma, [tournament.id]);
}

const viewer = await prisma.user.findFirstOrThrow({ where: { companyId: company.id }, orderBy: { id: 'desc' } });
const scope = { companyId: company.id, tournamentId: tournament.id };
console.log(
  `${db.provider}: ranking of ${await prisma.user.count({ where: { companyId: company.id } })} users over ` +
    `${matches.length} matches`,
);
await measureRules(15);

/**
 * Every tie rule under every membership rule (the default, without admins, without people who never played): a
 * first page, the page at skip 50,000 and the caller's standing, each cell timed once per pass and the passes
 * alternating the cells, so the figures compare side by side; medians written to bench/RANKINGS.md.
 */
async function measureRules(passes: number) {
  const variants = [
    { name: 'default', rankAdmins: true, rankNonPlayers: true },
    { name: 'rankAdmins false', rankAdmins: false, rankNonPlayers: true },
    { name: 'rankNonPlayers false', rankAdmins: true, rankNonPlayers: false },
  ];
  const cells = (['HITS', 'POINTS', 'ROUND_WINS'] as const).flatMap((tieRule) =>
    variants.map((v) => ({ tieRule, variant: v.name, scope: { ...scope, rules: { tieRule, ...v } } })),
  );
  const ops = [
    { name: 'first page (take 20)', run: (sc: typeof scope) => rankingPage(prisma, sc, 0, 20) },
    { name: 'page at skip 50,000 (take 100)', run: (sc: typeof scope) => rankingPage(prisma, sc, 50_000, 100) },
    { name: "caller's standing", run: (sc: typeof scope) => rankingOf(prisma, sc, viewer.id) },
  ];
  const load = loadavg()[0];
  const times = new Map<string, number[]>();
  const statements = new Map<string, number>();
  for (let pass = 0; pass <= passes; pass++) {
    for (const cell of cells) {
      for (const op of ops) {
        const key = `${cell.tieRule}|${cell.variant}|${op.name}`;
        const stats = { statements: 0 };
        const t = performance.now();
        await runWithSqlStats(stats, () => op.run(cell.scope));
        // The first pass warms the caches and plans; it is not counted.
        if (pass > 0) times.set(key, [...(times.get(key) ?? []), performance.now() - t]);
        statements.set(key, stats.statements);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = cells.map((cell) => {
    const figures = ops.map((op) => median(times.get(`${cell.tieRule}|${cell.variant}|${op.name}`)!));
    const most = Math.max(...ops.map((op) => statements.get(`${cell.tieRule}|${cell.variant}|${op.name}`)!));
    return { cell, figures, most };
  });
  const base = rows[0].figures;
  const line = (r: (typeof rows)[number]) =>
    `| ${r.cell.tieRule} | ${r.cell.variant} | ` +
    r.figures.map((f, i) => `${f.toFixed(1)} ms (${(f / base[i]).toFixed(2)}x)`).join(' | ') +
    ` | ${r.most} |`;
  for (const r of rows) console.log(line(r));
  const postgres = db.provider === 'postgresql';
  const report = [
    `# Every ranking rule at 100,000 users${postgres ? ', PostgreSQL' : ''}`,
    '',
    `Reproduce: \`${postgres ? 'DATABASE_URL=… ' : ''}npm run bench:ranking -- --report\` (${db.provider}; a company ` +
      `of ${USERS.toLocaleString('en')} users predicting ${matches.length} finished matches; generated once into ` +
      `${postgres ? 'the database' : 'bench/data/ranking.db'}, then reused). Each cell is ` +
      `the median of ${passes} passes after a warm-up pass; every pass runs every cell in turn, so the figures are ` +
      'measured side by side. The ratio compares each cell with the default rule (HITS, everyone ranked) in its ' +
      'column; statements are the most any of the three reads of the row ran.',
    '',
    `Load average (1 minute) when the passes began: ${load.toFixed(1)} on ${availableParallelism()} cores.`,
    '',
    '| Tie rule | Who is ranked | First page | Page at skip 50,000 | Caller’s standing | Statements |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(line),
    '',
  ].join('\n');
  if (values.report) writeFileSync(postgres ? 'bench/RANKINGS-postgresql.md' : 'bench/RANKINGS.md', report);
}

await measureResults(Number(values.results));

/** setMatchResult as a manager calls it: cold (the process's first), then warm (the median of `warm` more). */
async function measureResults(warm: number) {
  const manager = await prisma.user.findFirstOrThrow({ where: { email: 'manager@partners.test' } });
  const match = matches[0];
  const secret = 'bench-ranking-secret-that-is-long-enough';
  const scopeOfManager = async () => {
    const token = await signAccessToken(
      { userId: manager.id, companyId: manager.companyId, role: manager.role, tokenVersion: manager.tokenVersion },
      secret,
      3600,
    );
    const auth = await resolveRequestAuth(prisma, { authorization: `Bearer ${token}` }, secret);
    const now = new Date();
    const objects = new ObjectBudget(1000);
    const loaders = new Loaders(prisma, { tenantId: auth.tenant!.id, viewerId: manager.id, now, budget: objects });
    const mail = {
      smtpUrl: null,
      folder: null,
      from: 'bench@example.test',
      appUrl: 'http://127.0.0.1',
      messageIdKey: Buffer.alloc(32),
    };
    const config = {
      jwtSecret: secret,
      jwtTtlSeconds: 3600,
      database: target,
      dbStatementTimeoutMs: 25_000,
      mail,
      env: shipped.env,
      sso: shipped.sso,
      rescoreInRequestMaxPredictions: inRequest ? Number.MAX_SAFE_INTEGER : shipped.rescoreInRequestMaxPredictions,
    };
    const [live, wakeless] = [{ publish: () => {} }, { wake: () => {} }];
    return new RequestScope({
      db: prisma,
      auth,
      now,
      loaders,
      objects,
      config,
      mail: wakeless,
      live,
      rescoring: wakeless,
    });
  };
  const inRequest = values['in-request'];
  // RESCORE_IN_REQUEST_MAX_PREDICTIONS as the server would read it.
  const shipped = loadConfig();
  // The request's scope (its authentication's statements) is made before the clock starts. The job (if the result
  // left one) runs right after, as the server's runner would, and is timed on its own.
  const set = async (homeTeamGoals: number | null, awayTeamGoals: number | null, stats = { statements: 0 }) => {
    const scope = await scopeOfManager();
    const t = performance.now();
    await runWithSqlStats(stats, () =>
      setMatchResult(scope, { matchId: match.id, status: 'FINISHED', homeTeamGoals, awayTeamGoals }),
    );
    const request = performance.now() - t;
    const job = await runDueRescore(prisma);
    if (job === RESCORE_BUSY) throw new Error('the tournament was being written by something else');
    if (job && !job.report) throw new Error(`rescoring job failed: ${job.error}`);
    const jobMs = job ? performance.now() - t - request : 0;
    // The runner vacuums the standings after its pass (PostgreSQL): without it, back-to-back rescorings leave the
    // ranking's index-only scans visiting the heap (a page at skip 50,000 went from 27 to 173 ms).
    const v = performance.now();
    const vacuumed = job ? await vacuumStandings(prisma) : false;
    return { request, job: jobMs, vacuum: vacuumed ? performance.now() - v : 0 };
  };
  // Each a result the match has not had, so most predictions move and everyone is notified again.
  const results = [
    [2, 1],
    [0, 0],
    [1, 3],
    [2, 0],
    [1, 1],
    [0, 2],
    [3, 1],
    [2, 2],
    [0, 1],
    [3, 0],
  ];
  const times: Array<{ request: number; job: number; vacuum: number }> = [];
  let statements = 0;
  for (let i = 0; i <= warm; i++) {
    const [h, a] = results[i % results.length];
    const stats = { statements: 0 };
    times.push(await set(h, a, stats));
    statements = stats.statements;
  }
  await set(match.homeTeamGoals, match.awayTeamGoals);
  await prisma.notification.deleteMany({ where: { dedupeKey: { startsWith: `rankingsUpdated:match:${match.id}:` } } });
  const figures = (pick: (t: (typeof times)[number]) => number) => {
    const rest = times
      .slice(1)
      .map(pick)
      .sort((a, b) => a - b);
    return (
      `cold ${pick(times[0]).toFixed(0)} ms, warm median ${rest[Math.floor(rest.length / 2)].toFixed(0)} ms, ` +
      `max ${rest[rest.length - 1].toFixed(0)} ms`
    );
  };
  const predictions = await prisma.prediction.count({ where: { matchId: match.id } });
  const where = times[0].job > 0 ? 'rescored by a job after the request' : 'rescored in the request';
  console.log(
    `setMatchResult (${predictions} predictions, ${where}): ${statements} statement(s), ${figures((t) => t.request)}`,
  );
  if (times[0].job > 0) console.log(`  its rescoring job: ${figures((t) => t.job)}`);
  if (times[0].vacuum > 0) console.log(`  the runner's vacuum of the standings after it: ${figures((t) => t.vacuum)}`);
}

const rss = process.memoryUsage().rss / 1024 / 1024;
console.log(`process RSS ${rss.toFixed(0)} MiB`);
await db.close();
process.exit(0);
