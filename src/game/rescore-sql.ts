// The SQL the rescoring joins predictions to their kinds with (src/domain/rescore-plan.ts decides the kinds). A
// prediction is of a kind when every column scoring reads and every column of its stored score are equal:
// equality only, so no scoring rule is written here. Plain SQL that SQLite and PostgreSQL both run: enums and
// booleans are compared as text and 0/1, and every value is cast so PostgreSQL types the VALUES list.
import { Prisma } from '../db/sql.ts';
import { aliased, derived, Model, type Column } from '../db/typed-sql.ts';
import type { KindChange } from '../domain/rescore-plan.ts';

/** 17 values a kind: under both databases' limits on bound values per statement. */
export const KINDS_PER_STATEMENT = 1000;

/** What makes two predictions of one kind, as `v` and `pk` hold it: no null, booleans as 0 and 1. */
interface KindKey {
  companyId: number;
  matchId: number;
  homeTeamGoals: number;
  awayTeamGoals: number;
  /** '' when none. */
  penaltiesWinner: string;
  isJoker: number;
  status: string;
  /** -1 when none. */
  points: number;
  exactHit: number;
  outcomeHit: number;
}

/** The prediction's columns that make a kind (with its user's company), in `v`'s order. */
export const KIND_COLUMNS = [
  'matchId',
  'homeTeamGoals',
  'awayTeamGoals',
  'penaltiesWinner',
  'isJoker',
  'status',
  'points',
  'exactHit',
  'outcomeHit',
] as const satisfies ReadonlyArray<keyof KindKey & Column<typeof Model.Prediction>>;

/** A kind's key columns, as `v` and `pk` name them. */
const KEY = ['companyId', ...KIND_COLUMNS] as const;

/** A kind's row of `v`: its key, its new score, what it moves a standing by, its match's tournament. */
export interface KindValues extends KindKey {
  newPoints: number;
  newExactHit: number;
  newOutcomeHit: number;
  pointsDelta: number;
  exactHitsDelta: number;
  outcomeHitsDelta: number;
  tournamentId: number;
}

/** A row of `pk`: a prediction of the kinds' matches, with its key as v has it. */
export interface KeyedPrediction extends KindKey {
  id: number;
  userId: number;
}

export const v = derived<KindValues>('v');
export const pk = derived<KeyedPrediction>('pk');
/** The predicting user, for the columns `pk` may carry of them (kindsAndPredictions' `userColumns`). */
export const predictor = aliased(Model.User, 'u');

const int = (n: number) => Prisma.sql`CAST(${n} AS INTEGER)`;
const real = (n: number | null) => Prisma.sql`CAST(${n} AS DOUBLE PRECISION)`;
const text = (t: string | null) => Prisma.sql`CAST(${t} AS TEXT)`;
const bit = (b: boolean) => int(b ? 1 : 0);

/**
 * For a WITH: `v`, one row per kind (its key, its new score, what it moves a standing by), and `pk`, the kinds'
 * matches' predictions with their key columns as v has them (and `userColumns` of their user). pk is
 * materialised so both databases walk the matches' predictions once along their index and join the few kinds to
 * them, rather than each kind to every user of its company (PostgreSQL's choice when it sees a short VALUES list).
 */
export function kindsAndPredictions(
  changes: KindChange[],
  tournamentOf?: (matchId: number) => number,
  userColumns: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  const rows = changes.map(({ kind: k, score: s, standing: d }) => {
    const cells = [
      int(k.companyId),
      int(k.matchId),
      int(k.homeTeamGoals),
      int(k.awayTeamGoals),
      text(k.penaltiesWinner ?? ''),
      bit(k.isJoker),
      text(k.status),
      real(k.points ?? -1),
      bit(k.exactHit),
      bit(k.outcomeHit),
      real(s.points),
      bit(s.exactHit),
      bit(s.outcomeHit),
      real(d.points),
      int(d.exactHits),
      int(d.outcomeHits),
      int(tournamentOf ? tournamentOf(k.matchId) : 0),
    ];
    return Prisma.sql`(${Prisma.join(cells)})`;
  });
  const matchIds = [...new Set(changes.map((c) => c.kind.matchId))];
  const [p, u] = [aliased(Model.Prediction, 'p'), predictor];
  const flag = (c: 'isJoker' | 'exactHit' | 'outcomeHit') => Prisma.sql`CASE WHEN ${p.c(c)} THEN 1 ELSE 0 END`;
  return Prisma.sql`v (${v.names(
    ...KEY,
    'newPoints',
    'newExactHit',
    'newOutcomeHit',
    'pointsDelta',
    'exactHitsDelta',
    'outcomeHitsDelta',
    'tournamentId',
  )}) AS (VALUES ${Prisma.join(rows)}),
    pk AS MATERIALIZED (
      SELECT ${p.c('id')} AS "id", ${p.c('userId')} AS "userId", ${u.c('companyId')} AS "companyId",
        ${p.c('matchId')} AS "matchId", ${p.c('homeTeamGoals')} AS "homeTeamGoals",
        ${p.c('awayTeamGoals')} AS "awayTeamGoals",
        COALESCE(CAST(${p.c('penaltiesWinner')} AS TEXT), '') AS "penaltiesWinner",
        ${flag('isJoker')} AS "isJoker", CAST(${p.c('status')} AS TEXT) AS "status",
        COALESCE(${p.c('points')}, -1) AS "points", ${flag('exactHit')} AS "exactHit",
        ${flag('outcomeHit')} AS "outcomeHit" ${userColumns}
      FROM ${p} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')} WHERE ${p.c('matchId')} IN (${Prisma.join(matchIds)}))`;
}

/**
 * SQL: prediction `pk` is of kind `v` (every key column equal; a missing shoot-out winner is '' and missing points
 * -1 on both sides, so the comparisons are plain equalities a hash join can use).
 */
export const OF_KIND = Prisma.join(
  KEY.map((c) => Prisma.sql`${pk.c(c)} = ${v.c(c)}`),
  ' AND ',
);
