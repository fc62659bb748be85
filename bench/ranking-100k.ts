// `npm run bench:ranking [-- --users 100000] [--fresh]`: a company of N users predicting every finished match of
// the demo tournament, then timing a ranking page and the caller's standing. Uses DATABASE_URL, else a SQLite
// file under bench/data/ (kept for the next run). Prints statements per call and latency (median and max of 7 runs).
import { mkdirSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { seedDemo } from '../prisma/seed/demo-seed.ts';
import type { DatabaseTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { runWithSqlStats } from '../src/db/sql-stats.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../src/domain/defaults.ts';
import { rankingOf, rankingPage } from '../src/game/ranking-query.ts';
import { rescoreMatches } from '../src/game/rescore.ts';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, fresh: { type: 'boolean', default: false } },
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
  for (let i = 0; i < USERS; i += 5000) {
    const n = Math.min(5000, USERS - i);
    await prisma.user.createMany({
      data: Array.from({ length: n }, (_, k) => ({
        ...DEFAULT_USER_JSON,
        companyId: company!.id,
        email: `u${i + k}@bench.test`,
        name: `User ${String(i + k).padStart(6, '0')}`,
        externalId: `b${i + k}`,
        loginProviderId: `b${i + k}`,
      })),
    });
    process.stdout.write(`\rusers ${i + n}/${USERS}`);
  }
  const ids = (
    await prisma.user.findMany({ where: { companyId: company.id }, select: { id: true }, orderBy: { id: 'asc' } })
  ).map((u) => u.id);
  let made = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    const data = ids.slice(i, i + 1000).flatMap((userId, k) =>
      matches.map((m, j) => ({
        userId,
        matchId: m.id,
        homeTeamGoals: (i + k + j) % 4,
        awayTeamGoals: (i + k * j) % 3,
      })),
    );
    await prisma.prediction.createMany({ data });
    made += data.length;
    process.stdout.write(`\rpredictions ${made}/${ids.length * matches.length}`);
  }
  const r = await rescoreMatches(
    prisma,
    matches.map((m) => m.id),
  );
  console.log(
    `\ngenerated ${USERS} users, ${made} predictions, rescored ${r.predictions} in ` +
      `${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}

const viewer = await prisma.user.findFirstOrThrow({ where: { companyId: company.id }, orderBy: { id: 'desc' } });
const scope = { companyId: company.id, tournamentId: tournament.id };
async function measure(name: string, fn: () => Promise<unknown>) {
  const times: number[] = [];
  let statements = 0;
  for (let i = 0; i < 7; i++) {
    const stats = { statements: 0 };
    const t = performance.now();
    await runWithSqlStats(stats, fn);
    times.push(performance.now() - t);
    statements = stats.statements;
  }
  times.sort((a, b) => a - b);
  console.log(`${name}: ${statements} statement(s), median ${times[3].toFixed(1)} ms, max ${times[6].toFixed(1)} ms`);
}
console.log(
  `${db.provider}: ranking of ${await prisma.user.count({ where: { companyId: company.id } })} users over ` +
    `${matches.length} matches`,
);
await measure('ranking page (skip 0, take 20)', () => rankingPage(prisma, scope, 0, 20));
await measure('ranking page (skip 50000, take 100)', () => rankingPage(prisma, scope, 50_000, 100));
await measure("caller's standing (me)", () => rankingOf(prisma, scope, viewer.id));
// The organiser's other tie rules and membership settings leave the standings index: the scores are ranked.
for (const tieRule of ['POINTS', 'ROUND_WINS'] as const) {
  const ruled = { ...scope, rules: { tieRule, rankAdmins: true, rankNonPlayers: true } };
  await measure(`${tieRule}: ranking page (skip 0, take 20)`, () => rankingPage(prisma, ruled, 0, 20));
  await measure(`${tieRule}: caller's standing (me)`, () => rankingOf(prisma, ruled, viewer.id));
}
const rss = process.memoryUsage().rss / 1024 / 1024;
console.log(`process RSS ${rss.toFixed(0)} MiB`);
await db.close();
process.exit(0);
