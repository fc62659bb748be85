// Rankings computed by the database: one aggregate over the company's users and the tournament's scored
// predictions (plus dream-finals points in the general ranking), paged with LIMIT/OFFSET and numbered as
// RANK() would (ties share a position: 1, 2, 2, 4) from counts, so a page of a 100,000-user ranking never
// brings the users into the process and never sorts more than the page needs.
// Plain SQL that SQLite and PostgreSQL both run; integers are cast because PostgreSQL sums to bigint.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Db } from '../db/client.ts';
import { aliased, derived, Model, query, rowsOf, type Column } from '../db/typed-sql.ts';
import { tied, type RankedStanding, type Score, type Standing } from '../domain/rankings.ts';
import type { TieRule } from '../domain/scoring-settings.ts';
import { ROLE_RANK } from '../domain/roles.ts';
import { scoresOfSql, scoresPageSql, scoresTotalSql, type RankedScores } from './scores-page.ts';
import { playedIn } from './standings.ts';
import type { WinsColumn } from './round-wins.ts';

export interface RankingScope {
  companyId: number;
  tournamentId: number;
  /** One round, or several (a combined-rounds ranking). */
  roundIds?: number[] | null;
  areaId?: number | null;
  /** Only the members of this private league. */
  internalRankingId?: number | null;
  /** The company's tie rule and who is ranked (scoringSettings); the defaults when left out. */
  rules?: RankingRules;
}

export interface RankingRules {
  tieRule: TieRule;
  rankAdmins: boolean;
  rankNonPlayers: boolean;
}

const DEFAULT_RULES: RankingRules = { tieRule: 'HITS', rankAdmins: true, rankNonPlayers: true };
const rulesOf = (scope: RankingScope) => scope.rules ?? DEFAULT_RULES;

const u = aliased(Model.User, 'u');
const [p, m] = [aliased(Model.Prediction, 'p'), aliased(Model.Match, 'm')];

/** Who a ranking over several tournaments ranks (a season's): the company's, under its rules. */
export interface MembersScope {
  companyId: number;
  tournamentIds: number[];
  areaId?: number | null;
  internalRankingId?: number | null;
  rules?: RankingRules;
}

/** SQL: `column` is one of the tournaments (`=` for one, so the plans of a single tournament's ranking stay). */
const inTournaments = (column: Prisma.Sql, ids: number[]) =>
  ids.length === 1 ? Prisma.sql`${column} = ${ids[0]}` : Prisma.sql`${column} IN (${Prisma.join(ids)})`;

/** SQL: the conditions on `u` (a "User") for being ranked in the scope (round winners read them too). */
export const membersOf = (scope: RankingScope) => rankedMembers({ ...scope, tournamentIds: [scope.tournamentId] });

/** SQL: the conditions on `u` (a "User") for being ranked; playing means playing in one of the tournaments. */
export function rankedMembers(scope: MembersScope) {
  const rules = scope.rules ?? DEFAULT_RULES;
  const ids = scope.tournamentIds;
  const mb = aliased(Model.InternalRankingMembership, 'mb');
  const league =
    scope.internalRankingId != null
      ? Prisma.sql`AND ${u.c('id')} IN (SELECT ${mb.c('userId')} FROM ${mb} WHERE ${mb.c('rankingId')} =
        ${scope.internalRankingId})`
      : Prisma.empty;
  const area =
    scope.areaId != null
      ? Prisma.sql`AND (${u.c('areaLevel1Id')} = ${scope.areaId} OR ${u.c('areaLevel2Id')} = ${scope.areaId}
        OR ${u.c('areaLevel3Id')} = ${scope.areaId})`
      : Prisma.empty;
  const role = rules.rankAdmins ? Prisma.empty : Prisma.sql`AND ${u.c('role')} = 'player'`;
  // Playing: a prediction on one of the tournament's matches, dream-final picks or a bonus answer in it.
  const played = rules.rankNonPlayers ? Prisma.empty : Prisma.sql`AND ${playedIn(u.c('id'), ids)}`;
  return Prisma.sql`${u.c('companyId')} = ${scope.companyId} AND ${u.c('deletedAt')} IS NULL ${area} ${league} ${role}
    ${played}`;
}

/** A ranked user's row: the scores (round wins 0 unless the tie rule counts them). */
type ScoreRow = Required<Standing>;

/** Every ranked user of the scope with their points, exact hits, outcome hits and round wins (one row each). */
function scoresSelect(scope: RankingScope) {
  const byRound = scope.roundIds != null && scope.roundIds.length > 0;
  const round = byRound ? Prisma.sql`AND ${m.c('roundId')} IN (${Prisma.join(scope.roundIds!)})` : Prisma.empty;
  const members = membersOf(scope);
  const s = aliased(Model.TournamentStanding, 's');
  // The general ranking reads the kept standings (one row per user, dream-final points included); a ranking
  // of some rounds aggregates those rounds' scored predictions.
  const scores = byRound
    ? Prisma.sql`
      SELECT ${u.c('id')} AS "userId", ${u.c('name')} AS "name",
        ${sumInHundredths(Prisma.sql`SUM(${p.c('points')})`)} AS "points",
        CAST(COALESCE(SUM(CASE WHEN ${p.c('exactHit')} THEN 1 ELSE 0 END), 0) AS INTEGER) AS "exactHits",
        CAST(COALESCE(SUM(CASE WHEN ${p.c('outcomeHit')} THEN 1 ELSE 0 END), 0) AS INTEGER) AS "outcomeHits"
      FROM ${u}
      LEFT JOIN ${p} ON ${p.c('userId')} = ${u.c('id')} AND ${p.c('status')} = 'SCORED'
        AND ${p.c('matchId')} IN (SELECT ${m.c('id')} FROM ${m} WHERE ${m.c('tournamentId')} = ${scope.tournamentId}
          ${round})
      WHERE ${members}
      GROUP BY ${u.c('id')}, ${u.c('name')}`
    : Prisma.sql`
      SELECT ${u.c('id')} AS "userId", ${u.c('name')} AS "name",
        COALESCE(${s.c('points')}, 0) AS "points", COALESCE(${s.c('exactHits')}, 0) AS "exactHits",
        COALESCE(${s.c('outcomeHits')}, 0) AS "outcomeHits"
      FROM ${u}
      LEFT JOIN ${s} ON ${s.c('userId')} = ${u.c('id')} AND ${s.c('tournamentId')} = ${scope.tournamentId}
      WHERE ${members}`;
  if (rulesOf(scope).tieRule !== 'ROUND_WINS') return Prisma.sql`SELECT base.*, 0 AS "roundWins" FROM (${scores}) base`;
  return withRoundWins(scores, [scope.tournamentId], round, members);
}

/**
 * SQL: the scores (one row per ranked user) with the rounds each won among the tournaments' rounds (and `round`,
 * a condition on `m`), for the ROUND_WINS tie rule. `members`: the conditions on `u` for being ranked.
 */
export function withRoundWins(scores: Prisma.Sql, tournamentIds: number[], round: Prisma.Sql, members: Prisma.Sql) {
  const rp = derived<{ userId: number; roundId: number; points: number }>('rp');
  const best = derived<{ roundId: number; points: number }>('best');
  const wins = derived<{ userId: number; roundWins: number }>('wins');
  const base = derived<ScoreRow>('base');
  // A round is won by the ranked people with its most points (more than 0), each of them when level.
  return Prisma.sql`
    WITH rp AS (
      SELECT ${p.c('userId')} AS "userId", ${m.c('roundId')} AS "roundId",
        ${sumInHundredths(Prisma.sql`SUM(${p.c('points')})`)} AS "points"
      FROM ${p} JOIN ${m} ON ${m.c('id')} = ${p.c('matchId')} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')}
      WHERE ${p.c('status')} = 'SCORED' AND ${inTournaments(m.c('tournamentId'), tournamentIds)} ${round}
        AND ${members}
      GROUP BY ${p.c('userId')}, ${m.c('roundId')}),
    best AS (SELECT "roundId", MAX("points") AS "points" FROM rp GROUP BY "roundId"),
    wins AS (
      SELECT ${rp.c('userId')} AS "userId", COUNT(*) AS "roundWins" FROM rp JOIN best ON ${best.c('roundId')} =
        ${rp.c('roundId')}
      WHERE ${rp.c('points')} = ${best.c('points')} AND ${best.c('points')} > 0 GROUP BY ${rp.c('userId')})
    SELECT base.*, CAST(COALESCE(${wins.c('roundWins')}, 0) AS INTEGER) AS "roundWins"
    FROM (${scores}) base LEFT JOIN wins ON ${wins.c('userId')} = ${base.c('userId')}`;
}

/**
 * SQL: the row `s` ranks strictly ahead of the row named `other` (an alias of this file or of scores-page.ts). `wins`:
 * the round wins of `s` (a standing's kept column, or its "roundWins" when `s` is a row of scores).
 */
function ahead(other: string, rule: TieRule = 'HITS', wins: WinsColumn = 'roundWins') {
  const [s, o] = [derived<ScoreRow & { playerRoundWins: number }>('s'), derived<ScoreRow>(other)];
  const points = Prisma.sql`${s.c('points')} > ${o.c('points')}`;
  const level = Prisma.sql`${s.c('points')} = ${o.c('points')}`;
  if (rule === 'POINTS') return Prisma.sql`(${points})`;
  // The bound on points alone lets a count start its walk of the rule's index at the row's points.
  const atLeast = Prisma.sql`${s.c('points')} >= ${o.c('points')}`;
  if (rule === 'ROUND_WINS') {
    return Prisma.sql`(${atLeast} AND (${points} OR (${level} AND ${s.c(wins)} > ${o.c('roundWins')})))`;
  }
  return Prisma.sql`(${atLeast} AND (${points} OR (${level} AND (${s.c('exactHits')} > ${o.c('exactHits')}
    OR (${s.c('exactHits')} = ${o.c('exactHits')} AND ${s.c('outcomeHits')} > ${o.c('outcomeHits')})))))`;
}

/** SQL: ranking order under the tie rule, then by name. */
function order(rule: TieRule) {
  const by: Array<`${keyof ScoreRow & string}${'' | ' DESC'}`> =
    rule === 'POINTS'
      ? ['points DESC', 'name', 'userId']
      : rule === 'ROUND_WINS'
        ? ['points DESC', 'roundWins DESC', 'name', 'userId']
        : ['points DESC', 'exactHits DESC', 'outcomeHits DESC', 'name', 'userId'];
  return Prisma.raw(by.map((c) => c.replace(/^(\w+)/, '"$1"')).join(', '));
}

/** The standing of a row, without the counts read beside it. */
export const plain = (r: Standing): Standing => ({
  userId: r.userId,
  name: r.name,
  points: r.points,
  exactHits: r.exactHits,
  outcomeHits: r.outcomeHits,
  ...(r.roundWins === undefined ? {} : { roundWins: r.roundWins }),
});

export const STANDING = {
  userId: 'number',
  name: 'string',
  points: 'number',
  exactHits: 'number',
  outcomeHits: 'number',
} as const;
export const SCORES = { ...STANDING, roundWins: 'number' } as const;

const isZero = (t: Score) => t.points === 0 && t.exactHits === 0 && t.outcomeHits === 0;

/** The tie rules a standings index serves in its order: every one (decision 0031). */
type IndexedRule = TieRule;
/** A standing read from the standings: with its round wins (the scope's kept column), shown under ROUND_WINS only. */
const KEPT = { ...STANDING, roundWins: 'number' } as const;
/** The kept round wins the scope ranks by: among everyone, or among players only when admins are not ranked. */
const winsOf = (scope: RankingScope): WinsColumn => (rulesOf(scope).rankAdmins ? 'roundWins' : 'playerRoundWins');
const shownUnder = (rule: TieRule, r: Standing) =>
  rule === 'ROUND_WINS' ? plain(r) : { ...plain(r), roundWins: undefined };

/**
 * The general ranking (every ranked user of the company, the kept standings): the case the standings indexes serve,
 * under every tie rule and either membership rule. Returns the rule, or null when the scores are ranked instead.
 */
const generalRule = (scope: RankingScope): IndexedRule | null =>
  (scope.roundIds == null || scope.roundIds.length === 0) && scope.areaId == null && scope.internalRankingId == null
    ? rulesOf(scope).tieRule
    : null;

/** SQL: the roles that are not player, listed so the users' (companyId, role) index finds those few directly. */
const NOT_PLAYERS = Prisma.raw(
  `(${Object.keys(ROLE_RANK)
    .filter((r) => r !== 'player')
    .map((r) => `'${r}'`)
    .join(', ')})`,
);

/**
 * SQL: without admins (rankAdmins false), the standing on `alias` is not one of the company's people whose role is
 * not player (a few, read live, so a change of role counts at once). Those who never played have no points or hits,
 * so they never rank ahead of a standing the index serves: only the total counts them out (rankedTotal).
 */
function playersOnly(scope: RankingScope, alias: string) {
  if (rulesOf(scope).rankAdmins) return Prisma.empty;
  const na = aliased(Model.User, 'na');
  return Prisma.sql`AND ${Prisma.raw(alias)}."userId" NOT IN (SELECT ${na.c('id')} FROM ${na}
    WHERE ${na.c('companyId')} = ${scope.companyId} AND ${na.c('role')} IN ${NOT_PLAYERS})`;
}

/** SQL: how many are ranked in the general ranking: counts along the users' company index or the standings' index. */
function rankedTotal(scope: RankingScope) {
  const rules = rulesOf(scope);
  const [t, ts] = [aliased(Model.User, 't'), aliased(Model.TournamentStanding, 'ts')];
  const admins = Prisma.sql`${t.c('companyId')} = ${scope.companyId} AND ${t.c('role')} IN ${NOT_PLAYERS}`;
  if (!rules.rankNonPlayers) {
    // Those who played are those with a standing row: the company's rows (counted along the narrow index), less the
    // inactive ones and the admins' (a few each).
    const all = Prisma.sql`${ts.c('tournamentId')} = ${scope.tournamentId} AND ${ts.c('companyId')} =
      ${scope.companyId}`;
    const rows = Prisma.sql`${all} AND ${ts.c('active')} = TRUE`;
    const players = Prisma.sql`((SELECT COUNT(*) FROM ${ts} WHERE ${all}) - (SELECT COUNT(*) FROM ${ts} WHERE ${all}
      AND ${ts.c('active')} = FALSE))`;
    return rules.rankAdmins
      ? players
      : Prisma.sql`(${players} - (SELECT COUNT(*) FROM ${t} JOIN ${ts} ON ${ts.c('userId')} = ${t.c('id')} AND ${rows}
        WHERE ${admins}))`;
  }
  const active = Prisma.sql`${t.c('companyId')} = ${scope.companyId} AND ${t.c('deletedAt')} IS NULL`;
  const everyone = Prisma.sql`(SELECT COUNT(*) FROM ${t} WHERE ${active})`;
  return rules.rankAdmins
    ? everyone
    : Prisma.sql`(${everyone} - (SELECT COUNT(*) FROM ${t} WHERE ${admins} AND ${t.c('deletedAt')} IS NULL))`;
}

/**
 * Without people who never played (rankNonPlayers false) everyone ranked has a standing row, so the standings alone
 * are the ranking: pages need no fallback, and a user's row stands for having played. `members`: the conditions on
 * `u` the standings do not already say, `join`: how a user's standing is joined to them.
 */
function standingsMembers(scope: RankingScope) {
  const rules = rulesOf(scope);
  if (rules.rankNonPlayers) return { complete: false, members: membersOf(scope), join: Prisma.sql`LEFT JOIN` };
  const members = membersOf({ ...scope, rules: { ...rules, rankNonPlayers: true } });
  return { complete: true, members, join: Prisma.sql`JOIN` };
}

/**
 * SQL: how many of the company's active users rank strictly ahead of these points, exact hits and outcome hits
 * in the general ranking. Only users with a standing row can rank ahead of anyone (the others have nothing), so
 * it counts the active standing rows over a range of the rule's index.
 */
function aheadInStandings(scope: RankingScope, other: string, rule: IndexedRule) {
  const s = aliased(Model.TournamentStanding, 's');
  return Prisma.sql`(SELECT COUNT(*) FROM ${s}
      WHERE ${s.c('tournamentId')} = ${scope.tournamentId} AND ${s.c('companyId')} = ${scope.companyId}
        AND ${s.c('active')} = TRUE AND ${ahead(other, rule, winsOf(scope))} ${playersOnly(scope, 's')})`;
}

/** The rule's index order over the standings (round wins: `wins`), on alias `s` or on the page's own columns. */
function standingsOrder(rule: IndexedRule, wins: WinsColumn, alias?: string) {
  const columns: Array<Column<typeof Model.TournamentStanding>> =
    rule === 'POINTS' ? ['points'] : rule === 'ROUND_WINS' ? ['points', wins] : ['points', 'exactHits', 'outcomeHits'];
  const q = (c: string) => (alias ? `${alias}."${c}"` : `"${c}"`);
  return Prisma.raw([...columns.map((c) => `${q(c)} DESC`), q('name'), q('userId')].join(', '));
}

/** A page of the general ranking from the standings, with how many rank ahead of its head and the total. */
const generalPage = query(
  { ...KEPT, ahead: 'number', total: 'number' },
  (scope: RankingScope, skip: number, take: number, rule: IndexedRule) => {
    const s = aliased(Model.TournamentStanding, 's');
    // One statement, so the page, the total and the positions come from one state of the database.
    return Prisma.sql`
    WITH page AS MATERIALIZED (
      SELECT ${s.c('userId')} AS "userId", ${s.c('name')} AS "name", ${s.c('points')} AS "points",
        ${s.c('exactHits')} AS "exactHits", ${s.c('outcomeHits')} AS "outcomeHits", ${s.c(winsOf(scope))} AS
        "roundWins"
      FROM ${s}
      WHERE ${s.c('tournamentId')} = ${scope.tournamentId} AND ${s.c('companyId')} = ${scope.companyId}
        AND ${s.c('active')} = TRUE ${playersOnly(scope, 's')}
      ORDER BY ${standingsOrder(rule, winsOf(scope), 's')} LIMIT ${take} OFFSET ${skip}),
    head AS (SELECT * FROM page ORDER BY ${standingsOrder(rule, 'roundWins')} LIMIT 1)
    SELECT page.*, (SELECT CAST(${aheadInStandings(scope, 'head', rule)} AS INTEGER) FROM head) AS "ahead",
      CAST(${rankedTotal(scope)} AS INTEGER) AS "total"
    FROM page ORDER BY ${standingsOrder(rule, 'roundWins')}`;
  },
);

/**
 * A page of the general ranking: a walk along the rule's index of the standings, which carry the name and
 * deletion of their user, so no user is joined or sorted. Users without a standing row rank below everyone with
 * points (or hits, under HITS), so when the page lies among those (it is full and its last row ranks ahead of a
 * zero score) it is the ranking's page. Otherwise (the tail, or a tournament where nobody has scored yet) null,
 * and the caller ranks the scores instead; without people who never played every ranked user has a row, so any
 * page the walk finds is the ranking's.
 */
async function generalPageFromStandings(
  prisma: Db,
  scope: RankingScope,
  skip: number,
  take: number,
  rule: IndexedRule,
): Promise<{ total: number; entries: RankedStanding[] } | null> {
  const rows = await rowsOf(prisma, generalPage, scope, skip, take, rule);
  const page = rows.map((r) => shownUnder(rule, r));
  if (page.length === 0) return null;
  if (!standingsMembers(scope).complete) {
    if (page.length < take) return null;
    const last = page[page.length - 1];
    // Under POINTS hits do not count (nor, under ROUND_WINS, anything but round wins): a row with no points ties
    // with users who have no standing row.
    const zero = rule === 'HITS' ? isZero(last) : last.points === 0 && !last.roundWins;
    if (zero) return null;
  }
  return { total: rows[0].total, entries: numbered(page, rows[0].ahead, skip, rule) };
}

/** Positions as RANK() gives them, from how many rank ahead of the first row and the page's offset. */
export function numbered(
  rows: Standing[],
  aheadOfFirst: number,
  skip: number,
  rule: TieRule = 'HITS',
): RankedStanding[] {
  const entries: RankedStanding[] = [];
  rows.forEach((row, i) => {
    const position = i === 0 ? aheadOfFirst + 1 : tied(rows[i - 1], row, rule) ? entries[i - 1].position : skip + i + 1;
    entries.push({ ...row, position });
  });
  return entries;
}

/** The scope's scores, order and tie rule, for the statements both rankings page with (scores-page.ts). */
const ranked = (scope: RankingScope): RankedScores => rankedUnder(scoresSelect(scope), rulesOf(scope).tieRule);

/** Scores (one row per ranked user, with every standing column) in ranking order under the tie rule. */
export function rankedUnder(select: Prisma.Sql, rule: TieRule): RankedScores {
  return { select, order: order(rule), ahead: (other) => ahead(other, rule) };
}

/** A page of the scores in ranking order, with how many rank ahead of its head and the total. */
const scoresPage = query(
  { ...SCORES, ahead: 'number', total: 'number' },
  (scope: RankingScope, skip: number, take: number) => scoresPageSql(ranked(scope), skip, take),
);

/** How many are ranked in the scope. */
const scoresTotal = query({ total: 'number' }, (scope: RankingScope) => scoresTotalSql(scoresSelect(scope)));

/**
 * A page in ranking order with RANK() positions, without ranking everyone. The general ranking's pages come
 * from the standings index where they can (generalPageFromStandings); otherwise the page is a top-N sort of
 * the scores, which are counted for the total and for how many rank ahead of the page's first row. That row's
 * position is one more; each next row shares its predecessor's position when tied, else its position is its
 * place in the order (everyone before it ranks strictly ahead).
 */
export async function rankingPage(
  prisma: Db,
  scope: RankingScope,
  skip: number,
  take: number,
): Promise<{ total: number; entries: RankedStanding[] }> {
  const indexed = generalRule(scope);
  if (indexed && take > 0) {
    const fast = await generalPageFromStandings(prisma, scope, skip, take, indexed);
    if (fast) return fast;
  }
  const rule = rulesOf(scope).tieRule;
  const shown = (r: Standing) => (rule === 'ROUND_WINS' ? plain(r) : { ...plain(r), roundWins: undefined });
  const rows = await rowsOf(prisma, scoresPage, scope, skip, take);
  if (rows.length > 0) return { total: rows[0].total, entries: numbered(rows.map(shown), rows[0].ahead, skip, rule) };
  // Past the end: only the total is asked.
  const [count] = await rowsOf(prisma, scoresTotal, scope);
  return { total: count.total, entries: [] };
}

/** The user's standing in the general ranking, from the standings, with how many rank ahead of it. */
const generalOf = query({ ...KEPT, ahead: 'number' }, (scope: RankingScope, userId: number, rule: IndexedRule) => {
  const st = aliased(Model.TournamentStanding, 'st');
  const { members, join } = standingsMembers(scope);
  return Prisma.sql`
      SELECT mine.*, CAST(${aheadInStandings(scope, 'mine', rule)} AS INTEGER) AS "ahead"
      FROM (SELECT ${u.c('id')} AS "userId", ${u.c('name')} AS "name", COALESCE(${st.c('points')}, 0) AS "points",
          COALESCE(${st.c('exactHits')}, 0) AS "exactHits", COALESCE(${st.c('outcomeHits')}, 0) AS "outcomeHits",
          COALESCE(${st.c(winsOf(scope))}, 0) AS "roundWins"
        FROM ${u} ${join} ${st} ON ${st.c('userId')} = ${u.c('id')} AND ${st.c('tournamentId')} =
          ${scope.tournamentId}
        WHERE ${u.c('id')} = ${userId} AND ${members})
        mine`;
});

/** The user's scores in the scope, with how many rank ahead of them. */
const scoresOf = query({ ...SCORES, ahead: 'number' }, (scope: RankingScope, userId: number) =>
  // The scores are read twice (the caller's row, who ranks ahead). Round wins are worth computing once; plain
  // scores SQLite filters to the caller's row faster when it may fold them into the query (bench:ranking).
  scoresOfSql(ranked(scope), userId, { materialized: rulesOf(scope).tieRule === 'ROUND_WINS' }),
);

/** The user's standing and RANK() position: one pass counting who ranks strictly ahead. */
export async function rankingOf(prisma: Db, scope: RankingScope, userId: number): Promise<RankedStanding | null> {
  const indexed = generalRule(scope);
  if (indexed) {
    const [row] = await rowsOf(prisma, generalOf, scope, userId, indexed);
    return row ? { ...shownUnder(indexed, row), position: row.ahead + 1 } : null;
  }
  const rule = rulesOf(scope).tieRule;
  const [row] = await rowsOf(prisma, scoresOf, scope, userId);
  if (!row) return null;
  const mine = plain(row);
  return {
    ...mine,
    roundWins: rule === 'ROUND_WINS' ? mine.roundWins : undefined,
    position: row.ahead + 1,
  };
}

/** SQL: RANK() under the tie rule (round wins: `wins`): ties share a position, the next is skipped. */
function rankKeys(rule: TieRule, alias: string, wins: WinsColumn = 'roundWins') {
  const by =
    rule === 'POINTS' ? ['points'] : rule === 'ROUND_WINS' ? ['points', wins] : ['points', 'exactHits', 'outcomeHits'];
  return Prisma.raw(`RANK() OVER (ORDER BY ${by.map((c) => `${alias}."${c}" DESC`).join(', ')})`);
}

/**
 * Several users' standings in the general ranking from the standings, with their positions: the company's standings
 * ranked once (RANK() along the ranking-order index), whatever the number of users asked. A user without a standing
 * row has nothing and ranks after everyone with points or hits.
 */
const generalOfMany = query(
  { ...KEPT, position: 'number' },
  (scope: RankingScope, userIds: number[], rule: IndexedRule) => {
    const st = aliased(Model.TournamentStanding, 'st');
    const r = derived<Standing & { position: number }>('r');
    const { members, join } = standingsMembers(scope);
    const z = derived<Standing>('z');
    // Who ranks ahead of nothing at all (a user without a standing row).
    const some =
      rule === 'POINTS'
        ? Prisma.sql`${z.c('points')} > 0`
        : rule === 'ROUND_WINS'
          ? Prisma.sql`${z.c('points')} > 0 OR (${z.c('points')} = 0 AND ${z.c('roundWins')} > 0)`
          : Prisma.sql`${z.c('points')} > 0 OR (${z.c('points')} = 0 AND (${z.c('exactHits')} > 0
    OR (${z.c('exactHits')} = 0 AND ${z.c('outcomeHits')} > 0)))`;
    return Prisma.sql`
    WITH r AS MATERIALIZED (
      SELECT ${st.c('userId')} AS "userId", ${st.c('points')} AS "points", ${st.c('exactHits')} AS "exactHits",
        ${st.c('outcomeHits')} AS "outcomeHits", ${st.c(winsOf(scope))} AS "roundWins",
        ${rankKeys(rule, 'st', winsOf(scope))} AS "position"
      FROM ${st}
      WHERE ${st.c('tournamentId')} = ${scope.tournamentId} AND ${st.c('companyId')} = ${scope.companyId}
        AND ${st.c('active')} = TRUE ${playersOnly(scope, 'st')})
    SELECT ${u.c('id')} AS "userId", ${u.c('name')} AS "name", COALESCE(${r.c('points')}, 0) AS "points",
      COALESCE(${r.c('exactHits')}, 0) AS "exactHits", COALESCE(${r.c('outcomeHits')}, 0) AS "outcomeHits",
      COALESCE(${r.c('roundWins')}, 0) AS "roundWins",
      CAST(COALESCE(${r.c('position')}, (SELECT COUNT(*) FROM r z WHERE ${some}) + 1) AS INTEGER) AS "position"
    FROM ${u} ${join} r ON ${r.c('userId')} = ${u.c('id')}
    WHERE ${u.c('id')} IN (${Prisma.join(userIds)}) AND ${members}`;
  },
);

/** Several users' scores in the scope with their positions: the scope's scores ranked once. */
const scoresOfMany = query({ ...SCORES, position: 'number' }, (scope: RankingScope, userIds: number[]) => {
  const sc = derived<Standing & { position: number }>('sc');
  return Prisma.sql`
    WITH scores AS MATERIALIZED (${scoresSelect(scope)}),
    ranked AS (SELECT scores.*, CAST(${rankKeys(rulesOf(scope).tieRule, 'scores')} AS INTEGER) AS "position"
      FROM scores)
    SELECT * FROM ranked sc WHERE ${sc.c('userId')} IN (${Prisma.join(userIds)})`;
});

/**
 * Several users' standings and RANK() positions in one statement, whatever their number: what a live ranking event
 * reads once per company for all its subscribers in the process. Users not ranked in the scope are left out.
 */
export async function rankingsOf(
  prisma: Db,
  scope: RankingScope,
  userIds: number[],
): Promise<Map<number, RankedStanding>> {
  const found = new Map<number, RankedStanding>();
  if (userIds.length === 0) return found;
  const indexed = generalRule(scope);
  if (indexed) {
    for (const row of await rowsOf(prisma, generalOfMany, scope, userIds, indexed))
      found.set(row.userId, { ...shownUnder(indexed, row), position: row.position });
    return found;
  }
  const rule = rulesOf(scope).tieRule;
  for (const row of await rowsOf(prisma, scoresOfMany, scope, userIds)) {
    const mine = plain(row);
    found.set(row.userId, {
      ...mine,
      roundWins: rule === 'ROUND_WINS' ? mine.roundWins : undefined,
      position: row.position,
    });
  }
  return found;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const rankingSql = {
  generalPage,
  scoresPage,
  scoresTotal,
  generalOf,
  scoresOf,
  generalOfMany,
  scoresOfMany,
};
