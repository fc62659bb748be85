// Recomputes the points of every prediction (and the dream-final picks) of the given matches from their current
// results, with each predicting user's company rules. Idempotent: run it after any result change (API, importer,
// correction) or a company's change of rules.
//
// Set-based, so a match with 100,000 predictions costs a handful of statements and no rows in the process: the
// predictions are read grouped into kinds (src/domain/rescore-plan.ts: scored once each by the pure rules), and
// each kind whose score moved is one row of a VALUES list that three statements join the predictions to: the
// standings move by the difference, the players are notified, the predictions take their new score.
import { providerOfTx, type Tx } from '../db/client.ts';
import { lockRows } from '../db/row-locks.ts';
import { Prisma } from '../db/sql.ts';
import { aliased, col, derived, Model, names, query, rowsOf, table, type Column } from '../db/typed-sql.ts';
import { rescoreDreamFinals } from './dream-finals-rescore.ts';
import { changedKinds, type KindChange, type PredictionKind } from '../domain/rescore-plan.ts';
import { moveStandings, refreshStandings, usersWithoutStanding } from './standings.ts';
import { roundWinsMover } from './round-wins.ts';
import { firstLegsOf, secondLegsOf } from './first-legs.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { notifyRankingsUpdated } from './rescore-notifications.ts';
import { KIND_COLUMNS, kindsAndPredictions, KINDS_PER_STATEMENT, OF_KIND, pk, v } from './rescore-sql.ts';

export interface RescoreReport {
  matches: number;
  predictions: number;
  /** Tournaments of the matches rescored: what "rankingsUpdated" notifications are about. */
  tournamentIds: number[];
  /** Whether any standing was refreshed: rankings moved (live subscribers hear of it). */
  standingsChanged: boolean;
}

/** `companyId`: only that company's players' predictions (its rules changed, nobody else's). */
export async function rescoreMatches(tx: Tx, matchIds: number[], companyId?: number): Promise<RescoreReport> {
  if (matchIds.length === 0) return { matches: 0, predictions: 0, tournamentIds: [], standingsChanged: false };
  const provider = providerOfTx(tx);
  // Tournaments before matches, the order an import, a result and a correction take them in.
  if (provider === 'postgresql') {
    const ofTournaments = await tx.match.findMany({ where: { id: { in: matchIds } }, select: { tournamentId: true } });
    await lockRows(
      tx,
      provider,
      Model.Tournament,
      ofTournaments.map((m) => m.tournamentId),
    );
  }
  await lockRows(tx, provider, Model.Match, matchIds);
  const given = await tx.match.findMany({ where: { id: { in: matchIds } } });
  // Deleted since (a job queued for it): nothing is left to score.
  if (given.length === 0) return { matches: 0, predictions: 0, tournamentIds: [], standingsChanged: false };
  // A first leg's result is part of its second leg's aggregate: that one is rescored too.
  const seconds = (await secondLegsOf(tx, given)).filter((id) => !matchIds.includes(id));
  if (seconds.length) await lockRows(tx, provider, Model.Match, seconds);
  const matches = seconds.length ? [...given, ...(await tx.match.findMany({ where: { id: { in: seconds } } }))] : given;
  matchIds = matches.map((m) => m.id);
  const firstLegs = await firstLegsOf(tx, matches);
  const kinds = await readKinds(tx, matchIds, companyId);
  const companies = await tx.company.findMany({
    where: { id: { in: [...new Set(kinds.map((k) => k.companyId))] } },
    select: { id: true, scoringSettings: true, notificationSettings: true },
  });
  const rules = new Map(companies.map((c) => [c.id, readScoringSettings(c.scoringSettings)]));
  const byId = new Map(matches.map((m) => [m.id, m]));
  // By match: each statement below joins its kinds to their matches' predictions only, so a chunk of kinds that
  // spans few matches walks few predictions (a batch of jobs covers many matches).
  const changes = changedKinds(kinds, byId, rules, firstLegs).sort((a, b) => a.kind.matchId - b.kind.matchId);
  const tournamentOf = (matchId: number) => byId.get(matchId)!.tournamentId;

  // Read before the predictions change: these statements find each prediction by the score it has now.
  // Round wins are kept for the companies ranked under ROUND_WINS only (round-wins.ts).
  const winsMove = changes.filter(
    (c) => c.standing.points !== 0 && rules.get(c.kind.companyId)?.tieRule === 'ROUND_WINS',
  );
  const roundWins = await roundWinsMover(
    tx,
    [...new Set(winsMove.map((c) => byId.get(c.kind.matchId)!.roundId))],
    [...new Set(winsMove.map((c) => c.kind.companyId))],
  );
  for (let i = 0; i < changes.length; i += KINDS_PER_STATEMENT) {
    const chunk = changes.slice(i, i + KINDS_PER_STATEMENT);
    await moveStandings(tx, chunk, tournamentOf);
  }
  // Whoever's points changed hears that the rankings moved; a corrected result (another score) notifies again.
  await notifyRankingsUpdated(tx, changes, matches, companies);
  let changed = 0;
  for (const status of new Set(changes.map((c) => c.score.status))) {
    const same = changes.filter((c) => c.score.status === status);
    for (let i = 0; i < same.length; i += KINDS_PER_STATEMENT)
      changed += await rewrite(tx, status, same.slice(i, i + KINDS_PER_STATEMENT));
  }

  const tournamentIds = [...new Set(matches.map((m) => m.tournamentId))];
  // A final or third-place result decides dream-final picks too.
  const dreamChanged = companyId === undefined ? await rescoreDreamFinals(tx, tournamentIds) : 0;
  const standingsChanged = changed > 0 || dreamChanged > 0;
  if (standingsChanged) {
    // Before the new standings are made: a new one counts the rounds its user wins by itself.
    await roundWins();
    // Moving a standing needs one: a player's first scored prediction makes it from all they have.
    for (const { tournamentId, userIds } of await usersWithoutStanding(tx, matchIds, companyId))
      await refreshStandings(tx, tournamentId, userIds);
    if (dreamChanged > 0) {
      for (const tournamentId of tournamentIds) {
        const pickers = await tx.dreamFinalPick.findMany({
          where: { setting: { tournamentId } },
          select: { userId: true },
        });
        await refreshStandings(
          tx,
          tournamentId,
          pickers.map((p) => p.userId),
        );
      }
    }
  }
  return { matches: matches.length, predictions: changed, tournamentIds, standingsChanged };
}

// Locks (PostgreSQL; SQLite's writers take turns). Standings move by differences read from the predictions as they
// are, so two rescorings of one match (a result and a company's new rules) must not both read the old scores or
// results: the match rows are locked before they are read, and the second waits for the first to commit. Two
// rescorings of one tournament's matches at once (two replicas' jobs, a job and a request's result) would both make a
// new player's first standing, and one would fail on its unique key: the tournament row is locked first. Row locks
// write nothing, so no table version moves and no cached response is dropped.

/** The matches' predictions (of one company's players, if given) grouped into kinds: one row per kind. */
const kindsOf = query(
  {
    companyId: 'number',
    matchId: 'number',
    homeTeamGoals: 'number',
    awayTeamGoals: 'number',
    penaltiesWinner: 'string?',
    isJoker: 'boolean',
    status: 'string',
    points: 'number?',
    exactHit: 'boolean',
    outcomeHit: 'boolean',
    count: 'number',
  },
  (matchIds: number[], companyId?: number) => {
    const [p, u] = [aliased(Model.Prediction, 'p'), aliased(Model.User, 'u')];
    const company = companyId === undefined ? Prisma.empty : Prisma.sql`AND ${u.c('companyId')} = ${companyId}`;
    const key = [u.c('companyId'), ...KIND_COLUMNS.map((c) => p.c(c))];
    const selected = [
      Prisma.sql`${u.c('companyId')} AS "companyId"`,
      ...KIND_COLUMNS.map((c) => Prisma.sql`${p.c(c)} AS ${Prisma.raw(`"${c}"`)}`),
    ];
    return Prisma.sql`
      SELECT ${Prisma.join(selected)}, CAST(COUNT(*) AS INTEGER) AS "count"
      FROM ${p} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')}
      WHERE ${p.c('matchId')} IN (${Prisma.join(matchIds)}) ${company}
      GROUP BY ${Prisma.join(key)}`;
  },
);

/** The matches' predictions grouped by what scores them and what they scored: one row per kind. */
async function readKinds(tx: Tx, matchIds: number[], companyId?: number): Promise<PredictionKind[]> {
  const rows = await rowsOf(tx, kindsOf, matchIds, companyId);
  return rows.map((r) => ({
    ...r,
    penaltiesWinner: r.penaltiesWinner as PredictionKind['penaltiesWinner'],
    status: r.status as PredictionKind['status'],
  }));
}

/** Gives the predictions of these kinds (all taking `status`) their new score; returns how many changed. */
async function rewrite(tx: Tx, status: string, changes: KindChange[]): Promise<number> {
  return tx.$executeRaw(rewriteKinds(status, changes, new Date()));
}

function rewriteKinds(status: string, changes: KindChange[], now: Date) {
  const n = derived<{ id: number; points: number; exactHit: number; outcomeHit: number }>('n');
  const prediction = (c: Column<typeof Model.Prediction>) => col(Model.Prediction, c);
  const name = (c: Column<typeof Model.Prediction>) => names(Model.Prediction, c);
  // The new values go through a subquery of ids, so SQLite walks the match's predictions once and updates by id.
  return Prisma.sql`
    WITH ${kindsAndPredictions(changes)},
    n AS (SELECT ${pk.c('id')} AS "id", ${v.c('newPoints')} AS "points", ${v.c('newExactHit')} AS "exactHit",
        ${v.c('newOutcomeHit')} AS "outcomeHit"
      FROM pk JOIN v ON ${OF_KIND})
    UPDATE ${table(Model.Prediction)} SET ${name('status')} = ${status}, ${name('points')} = ${n.c('points')},
      ${name('exactHit')} = (${n.c('exactHit')} = 1), ${name('outcomeHit')} = (${n.c('outcomeHit')} = 1),
      ${name('updatedAt')} = ${now}
    FROM n WHERE ${prediction('id')} = ${n.c('id')}`;
}

/** The decided matches a company's players predicted: what a change of its rules rescores. */
export async function decidedMatchesOf(tx: Tx, companyId: number): Promise<number[]> {
  const decided = await tx.match.findMany({
    where: {
      status: { in: ['FINISHED', 'AWARDED', 'CANCELLED'] },
      predictions: { some: { user: { companyId } } },
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return decided.map((m) => m.id);
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const rescoreSql = { kindsOf, rewriteKinds };
