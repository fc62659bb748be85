// `npm run bench:seasons [-- --scale 1]`: a season's ranking and the team (area) rankings on the dataset
// `npm run bench:generate -- --scale <scale>` writes (DATABASE_URL, else bench/data/bench-<scale>.db): one company of
// 5,000 users (at scale 1) in a 100-leaf area tree, 3 tournaments. The season holds the three (weights 1, 1.5, 2);
// each figure is the first call (cold) and the median and max of the next 7, under the default tie rule and
// ROUND_WINS, with the statements per call.
import { parseArgs } from 'node:util';
import type { DatabaseTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { runWithSqlStats } from '../src/db/sql-stats.ts';
import { rankAreas } from '../src/domain/area-ranking.ts';
import type { TieRule } from '../src/domain/scoring-settings.ts';
import { areaRankingScores } from '../src/game/area-ranking.ts';
import { seasonRankingOf, seasonRankingPage, type SeasonScope } from '../src/game/season-ranking.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
const url = process.env.DATABASE_URL;
const target: DatabaseTarget = url
  ? { provider: 'postgresql', url }
  : { provider: 'sqlite', file: `${process.cwd()}/bench/data/bench-${values.scale}.db` };
const db = await openDatabase(target, { poolMax: 4 });
const prisma = db.prisma;
const company = await prisma.company.findFirstOrThrow({ orderBy: { id: 'asc' } });
const users = await prisma.user.count({ where: { companyId: company.id, deletedAt: null } });
const tournaments = (await prisma.companyTournament.findMany({ where: { companyId: company.id } })).map(
  (t) => t.tournamentId,
);
await prisma.season.deleteMany({ where: { companyId: company.id, name: 'Bench season' } });
const season = await prisma.season.create({
  data: {
    companyId: company.id,
    name: 'Bench season',
    tournaments: {
      create: tournaments.map((tournamentId, position) => ({
        tournamentId,
        weight: [1, 1.5, 2][position] ?? 1,
        position,
      })),
    },
  },
});
const caller = await prisma.user.findFirstOrThrow({ where: { companyId: company.id }, orderBy: { id: 'desc' } });

/** Cold, then the median and max of 7 warm calls, in ms; statements of one call. */
async function timed(work: () => Promise<unknown>) {
  const one = async () => {
    const stats = { statements: 0 };
    const t0 = performance.now();
    await runWithSqlStats(stats, work);
    return { ms: performance.now() - t0, statements: stats.statements };
  };
  const cold = await one();
  const warm: number[] = [];
  for (let i = 0; i < 7; i++) warm.push((await one()).ms);
  warm.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  return `${f(cold.ms)} | ${f(warm[3])} / ${f(warm[6])} | ${cold.statements}`;
}

const rows: string[] = [];
const row = async (call: string, work: () => Promise<unknown>) => rows.push(`| ${call} | ${await timed(work)} |`);
const middle = Math.floor(users / 2);
for (const tieRule of ['HITS', 'ROUND_WINS'] as TieRule[]) {
  const scope: SeasonScope = {
    companyId: company.id,
    seasonId: season.id,
    tournamentIds: tournaments,
    rules: { tieRule, rankAdmins: true, rankNonPlayers: true },
  };
  await row(`seasonRanking, first page of 20 (${tieRule})`, () => seasonRankingPage(prisma, scope, 0, 20));
  await row(`seasonRanking, skip ${middle} (${tieRule})`, () => seasonRankingPage(prisma, scope, middle, 20));
  await row(`seasonRanking, the caller's standing (${tieRule})`, () => seasonRankingOf(prisma, scope, caller.id));
}
for (const level of [1, 2, 3] as const) {
  const scope = {
    companyId: company.id,
    tournamentId: tournaments[0],
    level,
    minMembers: 3,
    rules: { tieRule: 'HITS' as const, rankAdmins: true, rankNonPlayers: true },
  };
  const areas = rankAreas(await areaRankingScores(prisma, scope)).length;
  await row(`areaRanking, level ${level} (${areas} areas)`, async () =>
    rankAreas(await areaRankingScores(prisma, scope)),
  );
}
await prisma.season.delete({ where: { id: season.id } });
console.log(
  `bench:seasons on ${target.provider}, ${users} users, ${tournaments.length} tournaments, Node ${process.version}`,
);
console.log('| Call | cold ms | warm median / max ms | statements |\n| --- | --- | --- | --- |');
console.log(rows.join('\n'));
await db.close();
process.exit(0);
