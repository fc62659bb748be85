// Keeps TournamentStanding (a user's scored points, exact and outcome hits, plus dream-final and bonus-question
// points in one tournament) in step with the predictions. Rescoring moves the standings of the predictions it
// rescores by the difference (moveStandings) and refreshes whoever had none; a refresh recomputes a user's row
// from everything they have (an insert that updates the row already there, keeping its round wins); a full rebuild
// is for data written around it (a migration, the benchmark generator). A row carries its user's name and whether
// they are deleted, for the ranking order: written here, kept by a trigger on "User" after. A row exists exactly for
// the users who played in the tournament (playedIn): triggers make it on zeros as the first prediction, pick or
// answer is written, and dropNonPlayers removes it when their last one is deleted through the API.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Tx } from '../db/client.ts';
import { aliased, col, derived, Model, names, query, rowsOf, table, type Column } from '../db/typed-sql.ts';
import type { KindChange } from '../domain/rescore-plan.ts';
import { kindsAndPredictions, OF_KIND } from './rescore-sql.ts';
import { recountRoundWins, winnersWith, winsPerUser } from './round-wins.ts';

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

/**
 * SQL: inserts (or refreshes) these users' standings in the tournament. `countWins` false: new rows count no round
 * won, for a caller that recounts the whole tournament's after it (recountRoundWins): winners read among "these
 * users' rounds and companies" made PostgreSQL aggregate every prediction per round for each of them (a rebuild at
 * the bench's scale 1 ran over 10 minutes, against seconds for the recount).
 */
function insertFor(tournamentId: number, users: Prisma.Sql, countWins = true) {
  const [p2, m2, u2] = [aliased(Model.Prediction, 'p2'), aliased(Model.Match, 'm2'), aliased(Model.User, 'u2')];
  const w = derived<{ userId: number; roundWins: number; playerRoundWins: number }>('w');
  // The winners of the rounds these users scored in, among their companies' users.
  const rounds = Prisma.sql`${m.c('tournamentId')} = ${tournamentId}
    AND ${m.c('roundId')} IN (SELECT ${m2.c('roundId')} FROM ${p2} JOIN ${m2} ON ${m2.c('id')} = ${p2.c('matchId')}
      WHERE ${p2.c('userId')} IN (${users}) AND ${p2.c('status')} = 'SCORED' AND ${m2.c('tournamentId')} =
        ${tournamentId})
    AND ${u.c('companyId')} IN (SELECT ${u2.c('companyId')} FROM ${u2} WHERE ${u2.c('id')} IN (${users}))`;
  // The round wins are joined (one row per user at most), not looked up per user: a lookup in a correlated subquery
  // ran their aggregate once per user (a rebuild of 100,000 standings did not end in 25 minutes).
  const [withWins, joinWins, wins] = countWins
    ? [
        Prisma.sql`WITH ${winnersWith(rounds)}, ${winsPerUser}`,
        Prisma.sql`LEFT JOIN w ON ${w.c('userId')} = ${u.c('id')}`,
        [Prisma.sql`COALESCE(MAX(${w.c('roundWins')}), 0)`, Prisma.sql`COALESCE(MAX(${w.c('playerRoundWins')}), 0)`],
      ]
    : [Prisma.empty, Prisma.empty, [Prisma.sql`0`, Prisma.sql`0`]];
  return Prisma.sql`
    ${withWins}
    INSERT INTO ${STANDING} (${INSERTED}, ${names(Model.TournamentStanding, 'roundWins', 'playerRoundWins')})
    SELECT ${tournamentId}, ${u.c('id')}, ${u.c('companyId')}, ${u.c('name')}, ${u.c('deletedAt')} IS NULL,
      ${sumInHundredths(Prisma.sql`COALESCE(SUM(${p.c('points')}), 0) + COALESCE((SELECT SUM(${dp.c('points')})
        FROM ${dp} JOIN ${ds} ON ${ds.c('id')} = ${dp.c('settingId')}
        WHERE ${dp.c('userId')} = ${u.c('id')} AND ${ds.c('tournamentId')} = ${tournamentId}), 0)
        + COALESCE((SELECT SUM(${ba.c('points')}) FROM ${ba} JOIN ${bq} ON ${bq.c('id')} = ${ba.c('questionId')}
        WHERE ${ba.c('userId')} = ${u.c('id')} AND ${bq.c('tournamentId')} = ${tournamentId}), 0)`)},
      CAST(COALESCE(SUM(CASE WHEN ${p.c('exactHit')} THEN 1 ELSE 0 END), 0) AS INTEGER),
      CAST(COALESCE(SUM(CASE WHEN ${p.c('outcomeHit')} THEN 1 ELSE 0 END), 0) AS INTEGER),
      CAST(${wins[0]} AS INTEGER), CAST(${wins[1]} AS INTEGER)
    FROM ${u}
    LEFT JOIN ${p} ON ${p.c('userId')} = ${u.c('id')} AND ${p.c('status')} = 'SCORED'
      AND ${p.c('matchId')} IN (SELECT ${m.c('id')} FROM ${m} WHERE ${m.c('tournamentId')} = ${tournamentId})
    ${joinWins}
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

/**
 * SQL: the user `user` (a column or a value) played in one of the tournaments: a prediction on one of their matches
 * (whatever its status), dream-final picks or a bonus answer in it. A standing row exists exactly for them (the
 * insert triggers of migration 20261128135949_players_in_standings, dropNonPlayers).
 */
export function playedIn(user: Prisma.Sql, tournamentIds: number[]) {
  const [pp, mm] = [aliased(Model.Prediction, 'pp'), aliased(Model.Match, 'mm')];
  const [dp3, ds3] = [aliased(Model.DreamFinalPick, 'dp3'), aliased(Model.DreamFinalsSetting, 'ds3')];
  const [ba3, bq3] = [aliased(Model.BonusAnswer, 'ba3'), aliased(Model.BonusQuestion, 'bq3')];
  const among = (column: Prisma.Sql) =>
    tournamentIds.length === 1
      ? Prisma.sql`${column} = ${tournamentIds[0]}`
      : Prisma.sql`${column} IN (${Prisma.join(tournamentIds)})`;
  return Prisma.sql`(EXISTS (SELECT 1 FROM ${pp} WHERE ${pp.c('userId')} = ${user} AND ${pp.c('matchId')} IN
      (SELECT ${mm.c('id')} FROM ${mm} WHERE ${among(mm.c('tournamentId'))}))
    OR EXISTS (SELECT 1 FROM ${dp3} JOIN ${ds3} ON ${ds3.c('id')} = ${dp3.c('settingId')}
      WHERE ${dp3.c('userId')} = ${user} AND ${among(ds3.c('tournamentId'))})
    OR EXISTS (SELECT 1 FROM ${ba3} JOIN ${bq3} ON ${bq3.c('id')} = ${ba3.c('questionId')}
      WHERE ${ba3.c('userId')} = ${user} AND ${among(bq3.c('tournamentId'))}))`;
}

/** SQL: the players of the tournament who have no standing there (the data step of players_in_standings). */
function playersWithoutStanding(tournamentId: number) {
  const [x, s] = [derived<{ userId: number }>('x'), aliased(Model.TournamentStanding, 's')];
  return Prisma.sql`SELECT ${x.c('userId')} FROM (${playersOf(tournamentId)}) x
    WHERE NOT EXISTS (SELECT 1 FROM ${s} WHERE ${s.c('tournamentId')} = ${tournamentId}
      AND ${s.c('userId')} = ${x.c('userId')})`;
}

/** SQL: the standings in the tournament of those of these users (all, when left out) who did not play in it. */
function deleteNonPlayers(tournamentId: number, users?: Prisma.Sql) {
  const only = users ? Prisma.sql`AND ${standing('userId')} IN (${users})` : Prisma.empty;
  return Prisma.sql`DELETE FROM ${STANDING} WHERE ${standing('tournamentId')} = ${tournamentId} ${only}
    AND NOT ${playedIn(standing('userId'), [tournamentId])}`;
}

/**
 * After some of these users' predictions, picks or answers in the tournament were deleted (a bonus question
 * deleted): the standings of those left with none go, so a standing row still means "played".
 */
export async function dropNonPlayers(tx: Tx, tournamentId: number, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    await tx.$executeRaw(deleteNonPlayers(tournamentId, Prisma.join(ids.slice(i, i + CHUNK))));
  }
}

/**
 * Makes the tournaments' standing rows those of their players exactly (data written before the insert triggers):
 * a standing for each player without one, none for those who do not play, and every round win counted again.
 */
export async function keepPlayersInStandings(tx: Tx, tournamentIds: number[]): Promise<void> {
  for (const tournamentId of tournamentIds) {
    await tx.$executeRaw(deleteNonPlayers(tournamentId));
    await tx.$executeRaw(insertFor(tournamentId, playersWithoutStanding(tournamentId), false));
  }
  await recountRoundWins(tx, tournamentIds);
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

/** Rebuilds every standing of the tournaments (everyone who predicted or picked in them), round wins counted last. */
export async function rebuildStandings(tx: Tx, tournamentIds: number[]): Promise<void> {
  for (const tournamentId of tournamentIds) {
    await tx.$executeRaw(deleteStandings(tournamentId));
    await tx.$executeRaw(insertFor(tournamentId, playersOf(tournamentId), false));
  }
  await recountRoundWins(tx, tournamentIds);
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
export const standingsSql = {
  insertFor,
  playersOf,
  playersWithoutStanding,
  deleteStandings,
  deleteNonPlayers,
  moveBy,
  withoutStanding,
};
