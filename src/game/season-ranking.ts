// A season's ranking: the company's people over several tournaments, each person's points the sum of their kept
// standings (TournamentStanding) times each tournament's weight, hits summed. One aggregate over the standings,
// paged and numbered by the statements every ranking pages with (scores-page.ts), under the ranking's tie rule and
// with the people it ranks (ranking-query.ts), so a page of a large company never brings the users into the process.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Db } from '../db/client.ts';
import { aliased, Model, query, rowsOf } from '../db/typed-sql.ts';
import type { RankedStanding, Standing } from '../domain/rankings.ts';
import {
  numbered,
  plain,
  rankedMembers,
  rankedUnder,
  SCORES,
  withRoundWins,
  type RankingRules,
} from './ranking-query.ts';
import { scoresOfSql, scoresPageSql, scoresTotalSql } from './scores-page.ts';

export interface SeasonScope {
  companyId: number;
  seasonId: number;
  /** The season's tournaments that count (at least one): their standings, who played in them, their rounds. */
  tournamentIds: number[];
  rules: RankingRules;
}

const u = aliased(Model.User, 'u');

/** Every ranked user with their weighted points and summed hits (one row each; round wins 0 unless counted). */
function seasonScores(scope: SeasonScope) {
  const [s, w] = [aliased(Model.TournamentStanding, 's'), aliased(Model.SeasonTournament, 'w')];
  const members = rankedMembers(scope);
  // The weights come from the season's rows, joined to the standings of the tournaments that count only.
  const scores = Prisma.sql`
    SELECT ${u.c('id')} AS "userId", ${u.c('name')} AS "name",
      ${sumInHundredths(Prisma.sql`SUM(${s.c('points')} * ${w.c('weight')})`)} AS "points",
      CAST(COALESCE(SUM(${s.c('exactHits')}), 0) AS INTEGER) AS "exactHits",
      CAST(COALESCE(SUM(${s.c('outcomeHits')}), 0) AS INTEGER) AS "outcomeHits"
    FROM ${u}
    LEFT JOIN ${s} ON ${s.c('userId')} = ${u.c('id')}
      AND ${s.c('tournamentId')} IN (${Prisma.join(scope.tournamentIds)})
    LEFT JOIN ${w} ON ${w.c('seasonId')} = ${scope.seasonId} AND ${w.c('tournamentId')} = ${s.c('tournamentId')}
    WHERE ${members}
    GROUP BY ${u.c('id')}, ${u.c('name')}`;
  if (scope.rules.tieRule !== 'ROUND_WINS') return Prisma.sql`SELECT base.*, 0 AS "roundWins" FROM (${scores}) base`;
  return withRoundWins(scores, scope.tournamentIds, Prisma.empty, members);
}

const ranked = (scope: SeasonScope) => rankedUnder(seasonScores(scope), scope.rules.tieRule);

/** A page of the season in ranking order, with how many rank ahead of its head and the total. */
const seasonPage = query(
  { ...SCORES, ahead: 'number', total: 'number' },
  (scope: SeasonScope, skip: number, take: number) => scoresPageSql(ranked(scope), skip, take),
);

/** How many the season ranks. */
const seasonTotal = query({ total: 'number' }, (scope: SeasonScope) => scoresTotalSql(seasonScores(scope)));

/** One user's season scores, with how many rank ahead of them. */
const seasonOf = query({ ...SCORES, ahead: 'number' }, (scope: SeasonScope, userId: number) =>
  scoresOfSql(ranked(scope), userId, { materialized: true }),
);

/** Round wins are shown under the ROUND_WINS tie rule only, as in a tournament's ranking. */
const shown = (scope: SeasonScope, r: Standing) =>
  scope.rules.tieRule === 'ROUND_WINS' ? plain(r) : { ...plain(r), roundWins: undefined };

/** A page of the season's ranking with RANK() positions (ties share a position: 1, 2, 2, 4). */
export async function seasonRankingPage(
  db: Db,
  scope: SeasonScope,
  skip: number,
  take: number,
): Promise<{ total: number; entries: RankedStanding[] }> {
  const rows = await rowsOf(db, seasonPage, scope, skip, take);
  if (rows.length > 0) {
    const entries = numbered(
      rows.map((r) => shown(scope, r)),
      rows[0].ahead,
      skip,
      scope.rules.tieRule,
    );
    return { total: rows[0].total, entries };
  }
  const [count] = await rowsOf(db, seasonTotal, scope);
  return { total: count.total, entries: [] };
}

/** The user's season standing and position; null when the season does not rank them. */
export async function seasonRankingOf(db: Db, scope: SeasonScope, userId: number): Promise<RankedStanding | null> {
  const [row] = await rowsOf(db, seasonOf, scope, userId);
  return row ? { ...shown(scope, row), position: row.ahead + 1 } : null;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const seasonRankingSql = { seasonPage, seasonTotal, seasonOf };
