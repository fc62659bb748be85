// Exports of a company's data for its organisers (admins, its reseller, managers): a tournament's ranking, its
// predictions and the company's people, as rows read from the database a page at a time. Each export shows the rows
// the API shows the same caller (`ranking`, `Match.predictions`, `users`); the face writes them out as they come
// (src/rest/exports.ts), so an export of any size holds one page in memory.
import type { Prisma } from '../db/sql.ts';
import { notFound } from '../domain/errors.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { rankingPage } from '../game/ranking-query.ts';
import { rankingShown, type RankingArgs } from './rankings.ts';
import type { RequestScope } from './scope.ts';

/** A cell as read: the face writes null as an empty cell and a date in ISO 8601 (UTC). */
export type ExportCell = string | number | boolean | Date | null;

export interface Export {
  /** The file's name, without directories: `ranking-<tournamentId>.csv`. */
  filename: string;
  columns: string[];
  /** The rows, a page at a time; the next page is read only when the previous one has been taken. */
  pages: AsyncIterable<ExportCell[][]>;
}

const organiserOf = (scope: RequestScope) =>
  scope.requireRole('admin', "only admins, the company's reseller and managers export its data");

/**
 * A tournament's ranking as `ranking` answers the caller, every page of it: the same order, positions and tie rule
 * (round wins only under ROUND_WINS). Organisers see every name, as in `ranking`. The pages are read with the
 * ranking's own paging, so an export that runs while results come in may show a person twice or not at all, as
 * paging through `ranking` would.
 */
export async function rankingExport(
  scope: RequestScope,
  args: Pick<RankingArgs, 'tournamentId' | 'roundId' | 'areaId'>,
  pageRows: number,
): Promise<Export> {
  organiserOf(scope);
  const { which } = await rankingShown(scope, args);
  const roundWins = readScoringSettings(scope.requireTenant().tenant.scoringSettings).tieRule === 'ROUND_WINS';
  const columns = ['position', 'userId', 'name', 'points', 'exactHits', 'outcomeHits'];
  async function* pages() {
    for (let skip = 0; ; skip += pageRows) {
      const { entries } = await rankingPage(scope.db, which, skip, pageRows);
      if (entries.length === 0) return;
      yield entries.map((e) => {
        const row: ExportCell[] = [e.position, e.userId, e.name, e.points, e.exactHits, e.outcomeHits];
        return roundWins ? [...row, e.roundWins ?? 0] : row;
      });
      if (entries.length < pageRows) return;
    }
  }
  return {
    filename: `ranking-${args.tournamentId}.csv`,
    columns: roundWins ? [...columns, 'roundWins'] : columns,
    pages: pages(),
  };
}

const PREDICTION_COLUMNS = [
  'predictionId',
  'matchId',
  'kickoff',
  'round',
  'homeTeam',
  'awayTeam',
  'userId',
  'userName',
  'homeTeamGoals',
  'awayTeamGoals',
  'penaltiesWinner',
  'isJoker',
  'status',
  'points',
];

/**
 * A tournament's predictions as `Match.predictions` shows them to the caller: those of the company's people, and
 * before kickoff only the caller's own (docs/design.md, "Privacy of predictions"). Match by match in kickoff order,
 * each match's predictions by user id, read in keyset pages over the (matchId, userId) index.
 */
export async function predictionsExport(scope: RequestScope, tournamentId: number, pageRows: number): Promise<Export> {
  const { viewer, tenant } = organiserOf(scope);
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenant.id);
  if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
  const db = scope.db;
  const [matches, rounds] = await Promise.all([
    db.match.findMany({ where: { tournamentId }, orderBy: [{ date: 'asc' }, { id: 'asc' }] }),
    db.round.findMany({ where: { tournamentId } }),
  ]);
  const teamIds = [...new Set(matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]))];
  const teams = await db.team.findMany({ where: { id: { in: teamIds } }, select: { id: true, name: true } });
  const teamName = new Map(teams.map((t) => [t.id, t.name]));
  const roundName = new Map(rounds.map((r) => [r.id, r.name]));
  const now = scope.now;
  async function* pages() {
    for (const m of matches) {
      const whose: Prisma.PredictionWhereInput = m.date <= now ? {} : { userId: viewer.id };
      for (let after = 0; ;) {
        const page = await db.prediction.findMany({
          where: { matchId: m.id, userId: { gt: after }, user: { companyId: tenant.id }, ...whose },
          orderBy: { userId: 'asc' },
          take: pageRows,
          include: { user: { select: { name: true } } },
        });
        if (page.length > 0)
          yield page.map((p) => [
            p.id,
            m.id,
            m.date,
            roundName.get(m.roundId) ?? '',
            teamName.get(m.homeTeamId) ?? '',
            teamName.get(m.awayTeamId) ?? '',
            p.userId,
            p.user.name,
            p.homeTeamGoals,
            p.awayTeamGoals,
            p.penaltiesWinner,
            p.isJoker,
            p.status,
            p.points,
          ]);
        if (page.length < pageRows) break;
        after = page[page.length - 1].userId;
      }
    }
  }
  return { filename: `predictions-${tournamentId}.csv`, columns: PREDICTION_COLUMNS, pages: pages() };
}

const USER_COLUMNS = [
  'id',
  'externalId',
  'name',
  'email',
  'role',
  'emailVerified',
  'areaLevel1Id',
  'areaLevel2Id',
  'areaLevel3Id',
  'loginProviderName',
  'preferredLanguage',
  'timezone',
  'createdAt',
  'lastActiveDate',
  'loginCount',
  'deletedAt',
] as const;

/**
 * The company's people as `users` lists them to the caller, by name then id (the active ones, or with
 * `deactivated` the deactivated ones; the deleted never), in keyset pages over (name, id). Only the fields `User`
 * shows an admin: no password hash, token or other secret is read.
 */
export async function usersExport(scope: RequestScope, deactivated: boolean, pageRows: number): Promise<Export> {
  const { tenant } = organiserOf(scope);
  const select = Object.fromEntries(USER_COLUMNS.map((c) => [c, true])) as Record<(typeof USER_COLUMNS)[number], true>;
  const db = scope.db;
  async function* pages() {
    let last: { name: string; id: number } | null = null;
    for (;;) {
      const after: Prisma.UserWhereInput = last
        ? { OR: [{ name: { gt: last.name } }, { name: last.name, id: { gt: last.id } }] }
        : {};
      const page = await db.user.findMany({
        where: { companyId: tenant.id, anonymizedAt: null, deletedAt: deactivated ? { not: null } : null, ...after },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        take: pageRows,
        select,
      });
      if (page.length > 0) yield page.map((u) => USER_COLUMNS.map((c) => u[c]));
      if (page.length < pageRows) return;
      last = page[page.length - 1];
    }
  }
  return { filename: deactivated ? 'users-deactivated.csv' : 'users.csv', columns: [...USER_COLUMNS], pages: pages() };
}
