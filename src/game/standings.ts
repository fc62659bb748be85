// Keeps TournamentStanding (a user's scored points, exact and outcome hits, plus dream-final and bonus-question
// points in one tournament) in step with the predictions. Rescoring moves the standings of the predictions it
// rescores by the difference (moveStandings) and refreshes whoever had none; a refresh recomputes a user's row
// from everything they have (an insert that updates the row already there, keeping its round wins); a full rebuild
// is for data written around it (a migration, the benchmark generator). A row carries its user's name and whether
// they are deleted, for the ranking order: written here, kept by a trigger on "User" after.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Tx } from '../db/client.ts';
import { aliased, col, derived, Model, names, query, rowsOf, table, type Column } from '../db/typed-sql.ts';
import type { KindChange } from '../domain/rescore-plan.ts';
import { kindsAndPredictions, OF_KIND } from './rescore-sql.ts';
import { winnersWith } from './round-wins.ts';

const CHUNK = 5000;

const [u, p, m] = [aliased(Model.User, 'u'), aliased(Model.Prediction, 'p'), aliased(Model.Match, 'm')];
const [dp, ds] = [aliased(Model.DreamFinalPick, 'dp'), aliased(Model.DreamFinalsSetting, 'ds')];
const [ba, bq] = [aliased(Model.BonusAnswer, 'ba'), aliased(Model.BonusQuestion, 'bq')];
const STANDING = table(Model.TournamentStanding);
const standing = (column: Column<typeof Model.TournamentStanding>) => col(Model.TournamentStanding, column);
const INSERTED = names(
  Model.TournamentStanding,
  'tournamentId',
  'userId',
  'companyId',
  'name',
  'active',
  'points',
  'exactHits',
  'outcomeHits',
);

// A refresh rewrites what the user's own rows make and keeps the round wins, which the rest of the company moves
// (round-wins.ts); a new row counts the rounds the user wins now.
const REFRESHED = Prisma.raw(
  (['companyId', 'name', 'active', 'points', 'exactHits', 'outcomeHits'] as const)
    .map((c) => `"${c}" = excluded."${c}"`)
    .join(', '),
);

function insertFor(tournamentId: number, users: Prisma.Sql) {
  const [p2, m2, u2] = [aliased(Model.Prediction, 'p2'), aliased(Model.Match, 'm2'), aliased(Model.User, 'u2')];
  const mine = derived<{ userId: number; roundWins: number }>('mine');
  // The winners of the rounds these users scored in, among their companies' users.
  const rounds = Prisma.sql`${m.c('tournamentId')} = ${tournamentId}
    AND ${m.c('roundId')} IN (SELECT ${m2.c('roundId')} FROM ${p2} JOIN ${m2} ON ${m2.c('id')} = ${p2.c('matchId')}
      WHERE ${p2.c('userId')} IN (${users}) AND ${p2.c('status')} = 'SCORED' AND ${m2.c('tournamentId')} =
        ${tournamentId})
    AND ${u.c('companyId')} IN (SELECT ${u2.c('companyId')} FROM ${u2} WHERE ${u2.c('id')} IN (${users}))`;
  return Prisma.sql`
    WITH ${winnersWith(rounds)},
    mine AS (SELECT "userId", COUNT(*) AS "roundWins" FROM won GROUP BY "userId")
    INSERT INTO ${STANDING} (${INSERTED}, ${names(Model.TournamentStanding, 'roundWins')})
    SELECT ${tournamentId}, ${u.c('id')}, ${u.c('companyId')}, ${u.c('name')}, ${u.c('deletedAt')} IS NULL,
      ${sumInHundredths(Prisma.sql`COALESCE(SUM(${p.c('points')}), 0) + COALESCE((SELECT SUM(${dp.c('points')})
        FROM ${dp} JOIN ${ds} ON ${ds.c('id')} = ${dp.c('settingId')}
        WHERE ${dp.c('userId')} = ${u.c('id')} AND ${ds.c('tournamentId')} = ${tournamentId}), 0)
        + COALESCE((SELECT SUM(${ba.c('points')}) FROM ${ba} JOIN ${bq} ON ${bq.c('id')} = ${ba.c('questionId')}
        WHERE ${ba.c('userId')} = ${u.c('id')} AND ${bq.c('tournamentId')} = ${tournamentId}), 0)`)},
      CAST(COALESCE(SUM(CASE WHEN ${p.c('exactHit')} THEN 1 ELSE 0 END), 0) AS INTEGER),
      CAST(COALESCE(SUM(CASE WHEN ${p.c('outcomeHit')} THEN 1 ELSE 0 END), 0) AS INTEGER),
      CAST(COALESCE((SELECT ${mine.c('roundWins')} FROM mine WHERE ${mine.c('userId')} = ${u.c('id')}), 0) AS INTEGER)
    FROM ${u}
    LEFT JOIN ${p} ON ${p.c('userId')} = ${u.c('id')} AND ${p.c('status')} = 'SCORED'
      AND ${p.c('matchId')} IN (SELECT ${m.c('id')} FROM ${m} WHERE ${m.c('tournamentId')} = ${tournamentId})
    WHERE ${u.c('id')} IN (${users})
    GROUP BY ${u.c('id')}, ${u.c('companyId')}, ${u.c('name')}, ${u.c('deletedAt')}
    ON CONFLICT (${names(Model.TournamentStanding, 'tournamentId', 'userId')}) DO UPDATE SET ${REFRESHED}`;
}

/** Everyone who predicted or picked in the tournament. */
function playersOf(tournamentId: number) {
  const [p2, m2] = [aliased(Model.Prediction, 'p2'), aliased(Model.Match, 'm2')];
  const [dp2, ds2] = [aliased(Model.DreamFinalPick, 'dp2'), aliased(Model.DreamFinalsSetting, 'ds2')];
  const [ba2, bq2] = [aliased(Model.BonusAnswer, 'ba2'), aliased(Model.BonusQuestion, 'bq2')];
  return Prisma.sql`
      SELECT ${p2.c('userId')} FROM ${p2} JOIN ${m2} ON ${m2.c('id')} = ${p2.c('matchId')}
      WHERE ${m2.c('tournamentId')} = ${tournamentId}
      UNION SELECT ${dp2.c('userId')} FROM ${dp2} JOIN ${ds2} ON ${ds2.c('id')} = ${dp2.c('settingId')}
      WHERE ${ds2.c('tournamentId')} = ${tournamentId}
      UNION SELECT ${ba2.c('userId')} FROM ${ba2} JOIN ${bq2} ON ${bq2.c('id')} = ${ba2.c('questionId')}
      WHERE ${bq2.c('tournamentId')} = ${tournamentId}`;
}

/** The standings of these users (all of the tournament's when left out), removed before they are built again. */
function deleteStandings(tournamentId: number, users?: Prisma.Sql) {
  const only = users ? Prisma.sql`AND ${standing('userId')} IN (${users})` : Prisma.empty;
  return Prisma.sql`DELETE FROM ${STANDING} WHERE ${standing('tournamentId')} = ${tournamentId} ${only}`;
}

/** Recomputes the standings of these users in the tournament. */
export async function refreshStandings(tx: Tx, tournamentId: number, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    await tx.$executeRaw(insertFor(tournamentId, Prisma.join(ids.slice(i, i + CHUNK))));
  }
}

/** Rebuilds every standing of the tournaments (everyone who predicted or picked in them). */
export async function rebuildStandings(tx: Tx, tournamentIds: number[]): Promise<void> {
  for (const tournamentId of tournamentIds) {
    await tx.$executeRaw(deleteStandings(tournamentId));
    await tx.$executeRaw(insertFor(tournamentId, playersOf(tournamentId)));
  }
}

/**
 * Before their predictions take a new score: adds to each standing what the player's predictions of these kinds
 * add now less what they added before. A sum kept to hundredths moved by a difference of hundredths is the sum
 * a refresh would make. Standings not there yet are left to refreshStandings (usersWithoutStanding).
 */
export async function moveStandings(
  tx: Tx,
  changes: KindChange[],
  tournamentOf: (matchId: number) => number,
): Promise<void> {
  const moving = changes.filter((c) => c.standing.points !== 0 || c.standing.exactHits || c.standing.outcomeHits);
  if (moving.length === 0) return;
  await tx.$executeRaw(moveBy(moving, tournamentOf));
}

interface Delta {
  userId: number;
  tournamentId: number;
  points: number;
  exactHits: number;
  outcomeHits: number;
}

/** SQL: adds the changes' differences to the standings they move (the WITH queries pk and v: rescore-sql.ts). */
function moveBy(moving: KindChange[], tournamentOf: (matchId: number) => number) {
  const pk = derived<{ userId: number }>('pk');
  const v = derived<{ tournamentId: number; pointsDelta: number; exactHitsDelta: number; outcomeHitsDelta: number }>(
    'v',
  );
  const d = derived<Delta>('d');
  const name = (c: 'points' | 'exactHits' | 'outcomeHits') => names(Model.TournamentStanding, c);
  return Prisma.sql`
    WITH ${kindsAndPredictions(moving, tournamentOf)},
    d AS (SELECT ${pk.c('userId')} AS "userId", ${v.c('tournamentId')} AS "tournamentId",
        SUM(${v.c('pointsDelta')}) AS "points", SUM(${v.c('exactHitsDelta')}) AS "exactHits",
        SUM(${v.c('outcomeHitsDelta')}) AS "outcomeHits"
      FROM pk JOIN v ON ${OF_KIND}
      GROUP BY ${pk.c('userId')}, ${v.c('tournamentId')})
    UPDATE ${STANDING} SET
      ${name('points')} = ${sumInHundredths(Prisma.sql`${standing('points')} + ${d.c('points')}`)},
      ${name('exactHits')} = ${standing('exactHits')} + ${d.c('exactHits')},
      ${name('outcomeHits')} = ${standing('outcomeHits')} + ${d.c('outcomeHits')}
    FROM ${d} WHERE ${standing('tournamentId')} = ${d.c('tournamentId')} AND ${standing('userId')} = ${d.c('userId')}`;
}

/** The matches' scored predictors (of one company, if given) without a standing in the match's tournament. */
const withoutStanding = query(
  { tournamentId: 'number', userId: 'number' },
  (matchIds: number[], companyId?: number) => {
    const s = aliased(Model.TournamentStanding, 's');
    const company =
      companyId === undefined
        ? Prisma.empty
        : Prisma.sql`AND ${p.c('userId')} IN (SELECT ${u.c('id')} FROM ${u} WHERE ${u.c('companyId')} = ${companyId})`;
    return Prisma.sql`
      SELECT DISTINCT ${m.c('tournamentId')} AS "tournamentId", ${p.c('userId')} AS "userId"
      FROM ${m} JOIN ${p} ON ${p.c('matchId')} = ${m.c('id')}
      WHERE ${m.c('id')} IN (${Prisma.join(matchIds)}) AND ${p.c('status')} = 'SCORED' ${company}
        AND NOT EXISTS (SELECT 1 FROM ${s} WHERE ${s.c('tournamentId')} = ${m.c('tournamentId')}
          AND ${s.c('userId')} = ${p.c('userId')})`;
  },
);

/** The matches' scored predictors (of one company, if given) without a standing in the match's tournament. */
export async function usersWithoutStanding(
  tx: Tx,
  matchIds: number[],
  companyId?: number,
): Promise<Array<{ tournamentId: number; userIds: number[] }>> {
  const rows = await rowsOf(tx, withoutStanding, matchIds, companyId);
  const byTournament = new Map<number, number[]>();
  for (const r of rows) {
    const users = byTournament.get(r.tournamentId) ?? [];
    users.push(r.userId);
    byTournament.set(r.tournamentId, users);
  }
  return [...byTournament].map(([tournamentId, userIds]) => ({ tournamentId, userIds }));
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const standingsSql = { insertFor, playersOf, deleteStandings, moveBy, withoutStanding };
