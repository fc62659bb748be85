// `npm run bench:rescore [-- --scale 1]`: rescoring a whole dataset in background jobs, as a change of game rules or
// a matchday's results leave it to them. Generates the bench dataset (bench:generate; scale 1: 5,000 users, 500
// matches, ~1,000,000 predictions), gives every match a final result at once, queues a rescoring job per match as
// setMatchResult and updateScoringSettings do past RESCORE_IN_REQUEST_MAX_PREDICTIONS, and times the runner's pass
// over them (each job in its own transaction, then one vacuum of the standings), then checks that no prediction was
// left unscored. Uses DATABASE_URL (an empty PostgreSQL database), else a fresh SQLite file under bench/data/.
import { rmSync } from 'node:fs';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { DatabaseTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { queueRescore, runDueRescores, vacuumStandings } from '../src/game/rescore-jobs.ts';
import { generate } from './generate.ts';

const { values } = parseArgs({
  options: { scale: { type: 'string', default: '1' }, out: { type: 'string', default: 'bench/RESCORE.md' } },
});
const scale = Number(values.scale);
if (!(scale > 0 && scale <= 10)) {
  console.error('bench:rescore: --scale must be a number in (0, 10]');
  process.exit(2);
}

let target: DatabaseTarget;
if (process.env.DATABASE_URL) target = { provider: 'postgresql', url: process.env.DATABASE_URL };
else {
  const file = `${process.cwd()}/bench/data/rescore-${scale}.db`;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  target = { provider: 'sqlite', file };
}

const seconds = (from: number) => (performance.now() - from) / 1000;
let t = performance.now();
const counts = await generate(target, scale);
const generated = seconds(t);
const db = await openDatabase(target, { poolMax: 4 });
const p = db.prisma;

// Every match final at once, 2-1: a matchday's results, or a change of rules, as far as the predictions go.
await p.match.updateMany({ data: { status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 } });
const matches = (await p.match.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((m) => m.id);
await p.$transaction((tx) => queueRescore(tx, matches, new Date()), { timeout: 60_000 });

t = performance.now();
const figures = await runDueRescores(p, (job) => console.error(`job for match ${job.matchId} failed: ${job.error}`));
const jobs = seconds(t);
t = performance.now();
await vacuumStandings(p);
const vacuum = seconds(t);
const unscored = await p.prediction.count({ where: { status: 'PENDING' } });
await db.close();

const line =
  `| ${new Date().toISOString().slice(0, 10)} | ${target.provider} | ${scale} | ${counts.predictions} | ` +
  `${figures.done} | ${figures.predictions} | ${jobs.toFixed(1)} s | ${vacuum.toFixed(1)} s | ` +
  `${generated.toFixed(1)} s |`;
console.log(
  `bench:rescore: ${figures.done} jobs (${figures.failed} failed) rescored ${figures.predictions} predictions in ` +
    `${jobs.toFixed(1)} s on ${target.provider}; vacuum ${vacuum.toFixed(1)} s; generated in ${generated.toFixed(1)} s`,
);
if (unscored > 0 || figures.failed > 0) {
  console.error(`bench:rescore: ${unscored} predictions left unscored, ${figures.failed} jobs failed`);
  process.exit(1);
}
appendFileSync(values.out, `${line}\n`);
process.exit(0);
