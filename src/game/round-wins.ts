// Keeps TournamentStanding.roundWins: the rounds of the tournament each user won within their company, as the
// ROUND_WINS tie rule counts them (ranking-query.ts withRoundWins): a round is won by the company's active users with
// its most points (more than 0), each of them when level. Beside it playerRoundWins, the same among the company's
// active players only (role player), the key when admins are not ranked. A rescoring reads the winners of the rounds
// it touches before and after it changes the predictions and moves only the standings of those who won or lost a
// round (roundWinsMover); a recount rebuilds a tournament's (a migration, a rebuild, a user deactivated,
// reactivated, erased or given or taken the player role through the API: recountAfterUserChange).
// Only companies ranked under ROUND_WINS have them kept: under the other tie rules nothing reads them, and a result
// would cost every company two reads of its round winners and an update of each standing whose round wins moved.
// A company switched to ROUND_WINS has them recounted in the same transaction (recountForCompany).
import { providerOfTx, type Tx } from '../db/client.ts';
import { lockRows } from '../db/row-locks.ts';
import { Prisma, sumInHundredths } from '../db/sql.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { aliased, col, derived, Model, names, query, rowsOf, table, type RowOf } from '../db/typed-sql.ts';

const CHUNK = 5000;
const [p, m, u] = [aliased(Model.Prediction, 'p'), aliased(Model.Match, 'm'), aliased(Model.User, 'u')];
const STANDING = table(Model.TournamentStanding);
/** The two kept counts: among everyone, among players only. */
export type WinsColumn = 'roundWins' | 'playerRoundWins';
const standing = (c: 'tournamentId' | 'userId' | 'companyId' | WinsColumn) => col(Model.TournamentStanding, c);

/**
 * SQL: the WITH queries `won` over the scored predictions `where` admits: one row per round and user who won it
 * among everyone ("overall" 1) or among the players ("amongPlayers" 1), or both.
 */
export function winnersWith(where: Prisma.Sql) {
  const rp = derived<{
    tournamentId: number;
    companyId: number;
    roundId: number;
    userId: number;
    points: number;
    player: number;
  }>('rp');
  const best = derived<{ companyId: number; roundId: number; points: number; playerPoints: number }>('best');
  return Prisma.sql`
    rp AS (
      SELECT ${m.c('tournamentId')} AS "tournamentId", ${u.c('companyId')} AS "companyId", ${m.c('roundId')} AS
        "roundId", ${p.c('userId')} AS "userId", ${sumInHundredths(Prisma.sql`SUM(${p.c('points')})`)} AS "points",
        CASE WHEN ${u.c('role')} = 'player' THEN 1 ELSE 0 END AS "player"
      FROM ${p} JOIN ${m} ON ${m.c('id')} = ${p.c('matchId')} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')}
      WHERE ${p.c('status')} = 'SCORED' AND ${u.c('deletedAt')} IS NULL AND ${where}
      GROUP BY ${m.c('tournamentId')}, ${u.c('companyId')}, ${m.c('roundId')}, ${p.c('userId')}, ${u.c('role')}),
    best AS (
      SELECT "companyId", "roundId", MAX("points") AS "points",
        MAX(CASE WHEN "player" = 1 THEN "points" END) AS "playerPoints"
      FROM rp GROUP BY "companyId", "roundId"),
    won AS (
      SELECT ${rp.c('tournamentId')} AS "tournamentId", ${rp.c('roundId')} AS "roundId", ${rp.c('userId')} AS "userId",
        CASE WHEN ${rp.c('points')} = ${best.c('points')} THEN 1 ELSE 0 END AS "overall",
        CASE WHEN ${rp.c('player')} = 1 AND ${rp.c('points')} = ${best.c('playerPoints')} THEN 1 ELSE 0 END
          AS "amongPlayers"
      FROM rp JOIN best ON ${best.c('companyId')} = ${rp.c('companyId')} AND ${best.c('roundId')} = ${rp.c('roundId')}
      WHERE ${rp.c('points')} > 0 AND (${rp.c('points')} = ${best.c('points')}
        OR (${rp.c('player')} = 1 AND ${rp.c('points')} = ${best.c('playerPoints')})))`;
}

/** SQL: `won` summed per user, as the WITH query `w` ("userId", "roundWins", "playerRoundWins"). */
export const winsPerUser = Prisma.sql`w AS (SELECT "userId", SUM("overall") AS "roundWins",
  SUM("amongPlayers") AS "playerRoundWins" FROM won GROUP BY "userId")`;

/**
 * The winners of the rounds these matches make up (`matchIds`: every match of those rounds) among these companies'
 * users. By match ids, so both databases read only those matches' predictions: filtered by round, SQLite walked
 * every prediction of the companies' users and PostgreSQL scanned the table (0.55-2 s and 0.2 s a read at 1,000,000
 * predictions, against 0.2 s and 0.12 s).
 */
const winnersOf = query(
  { tournamentId: 'number', roundId: 'number', userId: 'number', overall: 'number', amongPlayers: 'number' },
  (matchIds: number[], companyIds: number[]) =>
    Prisma.sql`WITH ${winnersWith(Prisma.sql`${p.c('matchId')} IN (${Prisma.join(matchIds)})
      AND ${u.c('companyId')} IN (${Prisma.join(companyIds)})`)}
    SELECT "tournamentId", "roundId", "userId", "overall", "amongPlayers" FROM won`,
);

/** SQL: every standing of the tournament (of one company, if given) counts no round won. */
function clearRoundWins(tournamentId: number, companyId?: number) {
  const company = companyId === undefined ? Prisma.empty : Prisma.sql`AND ${standing('companyId')} = ${companyId}`;
  return Prisma.sql`UPDATE ${STANDING} SET ${names(Model.TournamentStanding, 'roundWins')} = 0,
      ${names(Model.TournamentStanding, 'playerRoundWins')} = 0
    WHERE ${standing('tournamentId')} = ${tournamentId} ${company}
      AND (${standing('roundWins')} <> 0 OR ${standing('playerRoundWins')} <> 0)`;
}

/** SQL: each winner's standing takes the number of rounds they won in the tournament (of one company, if given). */
function countRoundWins(tournamentId: number, companyId?: number) {
  const company = companyId === undefined ? Prisma.empty : Prisma.sql`AND ${u.c('companyId')} = ${companyId}`;
  const w = derived<{ userId: number; roundWins: number; playerRoundWins: number }>('w');
  return Prisma.sql`
    WITH ${winnersWith(Prisma.sql`${m.c('tournamentId')} = ${tournamentId} ${company}`)}, ${winsPerUser}
    UPDATE ${STANDING} SET ${names(Model.TournamentStanding, 'roundWins')} = ${w.c('roundWins')},
      ${names(Model.TournamentStanding, 'playerRoundWins')} = ${w.c('playerRoundWins')}
    FROM w WHERE ${standing('tournamentId')} = ${tournamentId} AND ${standing('userId')} = ${w.c('userId')}`;
}

/** Recounts the round wins of every standing of the tournaments (of one company, if given). */
export async function recountRoundWins(tx: Tx, tournamentIds: number[], companyId?: number): Promise<void> {
  for (const tournamentId of tournamentIds) {
    await tx.$executeRaw(clearRoundWins(tournamentId, companyId));
    await tx.$executeRaw(countRoundWins(tournamentId, companyId));
  }
}

/** Whether the company's round wins are kept: it ranks under ROUND_WINS. */
async function keepsRoundWins(tx: Tx, companyId: number): Promise<boolean> {
  const company = await tx.company.findUnique({ where: { id: companyId }, select: { scoringSettings: true } });
  return company !== null && readScoringSettings(company.scoringSettings).tieRule === 'ROUND_WINS';
}

/**
 * After a user is deactivated, reactivated, erased or given or taken the player role (the caller's transaction): the
 * rounds they played in may have other winners now, so their company's round wins are recounted in each tournament
 * they have a standing in, when the company keeps them.
 */
export async function recountAfterUserChange(tx: Tx, user: { id: number; companyId: number }): Promise<void> {
  const standings = await tx.tournamentStanding.findMany({
    where: { userId: user.id },
    select: { tournamentId: true },
  });
  const tournamentIds = standings.map((s) => s.tournamentId);
  // Read last, without the tournament locks: this transaction already holds standings (the user's row, through the
  // trigger), and waiting for a tournament a rescoring holds while it waits for those standings would deadlock.
  if (tournamentIds.length > 0 && (await keepsRoundWins(tx, user.companyId)))
    await recountRoundWins(tx, tournamentIds, user.companyId);
}

/**
 * A company switched to ROUND_WINS (its rules' transaction): its round wins, left alone under the other rules, are
 * counted again in each tournament it has standings in, under the locks a rescoring takes first, so none moves them
 * meanwhile.
 */
export async function recountForCompany(tx: Tx, companyId: number): Promise<void> {
  // Grouped by the database: a large company has a standing per player in each tournament.
  const rows = await tx.tournamentStanding.groupBy({ by: ['tournamentId'], where: { companyId } });
  const tournamentIds = rows.map((r) => r.tournamentId);
  await lockRows(tx, providerOfTx(tx), Model.Tournament, tournamentIds);
  await recountRoundWins(tx, tournamentIds, companyId);
}

/** SQL: these users' standings in the tournament count `by` more (or fewer) rounds won in `column`. */
function moveRoundWinsBy(tournamentId: number, column: WinsColumn, by: number, userIds: number[]) {
  return Prisma.sql`UPDATE ${STANDING} SET ${names(Model.TournamentStanding, column)} = ${standing(column)} + ${by}
    WHERE ${standing('tournamentId')} = ${tournamentId}
      AND ${standing('userId')} IN (${Prisma.join(userIds)})`;
}

/** A round won, counted in one of the two columns. */
interface Win {
  column: WinsColumn;
  tournamentId: number;
  roundId: number;
  userId: number;
}

/** The wins the rows of winnersOf make: one for each column a row counts in. */
const winsOf = (rows: RowOf<typeof winnersOf.shape>[]): Win[] =>
  rows.flatMap((r) => [
    ...(r.overall ? [{ ...r, column: 'roundWins' as const }] : []),
    ...(r.amongPlayers ? [{ ...r, column: 'playerRoundWins' as const }] : []),
  ]);

const key = (w: Win) => `${w.column}:${w.tournamentId}:${w.roundId}:${w.userId}`;

/**
 * Reads the winners of the rounds before a rescoring changes their predictions; the function it returns, called
 * once the predictions and standings are written (the same transaction), reads them again and moves the round wins
 * of those who won or lost one (among everyone, among players). Rounds nobody's score moved in are not read.
 */
export async function roundWinsMover(tx: Tx, roundIds: number[], companyIds: number[]): Promise<() => Promise<void>> {
  if (roundIds.length === 0 || companyIds.length === 0) return async () => {};
  const rounds = await tx.match.findMany({ where: { roundId: { in: roundIds } }, select: { id: true } });
  const matchIds = rounds.map((r) => r.id);
  const before = winsOf(await rowsOf(tx, winnersOf, matchIds, companyIds));
  return async () => {
    const after = winsOf(await rowsOf(tx, winnersOf, matchIds, companyIds));
    // Per column, tournament and user: how many rounds they won more (or fewer).
    const delta = new Map<string, { column: WinsColumn; tournamentId: number; userId: number; by: number }>();
    const add = (w: Win, by: number) => {
      const k = `${w.column}:${w.tournamentId}:${w.userId}`;
      const d = delta.get(k) ?? { column: w.column, tournamentId: w.tournamentId, userId: w.userId, by: 0 };
      delta.set(k, { ...d, by: d.by + by });
    };
    const [was, is] = [new Set(before.map(key)), new Set(after.map(key))];
    for (const w of before) if (!is.has(key(w))) add(w, -1);
    for (const w of after) if (!was.has(key(w))) add(w, 1);
    // One statement per column, tournament and difference (a user's wins move by a few rounds at most).
    const groups = new Map<string, { column: WinsColumn; tournamentId: number; by: number; userIds: number[] }>();
    for (const d of delta.values()) {
      if (d.by === 0) continue;
      const k = `${d.column}:${d.tournamentId}:${d.by}`;
      const g = groups.get(k) ?? { column: d.column, tournamentId: d.tournamentId, by: d.by, userIds: [] };
      g.userIds.push(d.userId);
      groups.set(k, g);
    }
    for (const g of groups.values())
      for (let i = 0; i < g.userIds.length; i += CHUNK)
        await tx.$executeRaw(moveRoundWinsBy(g.tournamentId, g.column, g.by, g.userIds.slice(i, i + CHUNK)));
  };
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const roundWinsSql = { winnersOf, clearRoundWins, countRoundWins, moveRoundWinsBy };
