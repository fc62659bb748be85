// Lists a client reads instead of whole tournaments: the tenant's matches in a time window, and the caller's own
// predictions. Both stay inside the tournaments the company the request acts on plays (tournamentsByCompany: the
// ones it takes part in and its own custom ones; a deleted tournament or one it left is not there).
import type { MatchStatus, PredictionStatus } from '../db/enums.ts';
import type { MatchRow, PredictionRow } from '../db/rows.ts';
import { badInput, notFound } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import type { RequestScope } from './scope.ts';

/** A window wider than this is refused: a season is shorter, and paging walks longer lists. */
export const MAX_WINDOW_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MatchesArgs {
  from?: Date | null;
  to?: Date | null;
  tournamentId?: number | null;
  status?: string[] | null;
  skip?: number | null;
  take?: number | null;
}

/** The ids of the tenant's tournaments, or just `tournamentId` when it is one of them (NOT_FOUND otherwise). */
async function visibleTournamentIds(scope: RequestScope, tenantId: number, tournamentId?: number | null) {
  const tournaments = await scope.loaders.tournamentsByCompany.load(tenantId);
  if (tournamentId === undefined || tournamentId === null) return tournaments.map((t) => t.id);
  if (!Number.isSafeInteger(tournamentId) || tournamentId < 1)
    throw badInput('tournamentId must be a positive integer', 'tournamentId');
  if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
  return [tournamentId];
}

function statusList<T extends string>(status: string[] | null | undefined): T[] | undefined {
  if (status === undefined || status === null) return undefined;
  if (status.length === 0) throw badInput('status must name at least one status, or be left out', 'status');
  return [...new Set(status)] as T[];
}

function validDate(value: Date | null | undefined, name: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw badInput(`${name} must be a date-time`, name);
  return value;
}

/**
 * Matches of the tenant's tournaments kicking off from `from` (default: now) up to `to` (inclusive; default: no
 * end), by kickoff then id, one page at a time.
 */
export async function matches(scope: RequestScope, args: MatchesArgs): Promise<MatchRow[]> {
  const { tenant } = scope.requireTenant();
  const page = paging(args.skip, args.take);
  const from = validDate(args.from, 'from') ?? scope.now;
  const to = validDate(args.to, 'to');
  if (to && to.getTime() < from.getTime())
    throw badInput(`to must not be before from${args.from ? '' : ' (from defaults to now)'}`, 'to');
  if (to && to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS)
    throw badInput(`from and to may be at most ${MAX_WINDOW_DAYS} days apart`, 'to');
  const status = statusList<MatchStatus>(args.status);
  const tournamentIds = await visibleTournamentIds(scope, tenant.id, args.tournamentId);
  if (tournamentIds.length === 0) return [];
  const rows = await scope.db.match.findMany({
    where: {
      tournamentId: { in: tournamentIds },
      date: { gte: from, ...(to ? { lte: to } : {}) },
      ...(status ? { status: { in: status } } : {}),
    },
    orderBy: [{ date: 'asc' }, { id: 'asc' }],
    ...page,
  });
  for (const m of rows) scope.loaders.match.prime(m.id, m);
  return rows;
}

export interface MyPredictionsArgs {
  tournamentId?: number | null;
  status?: string[] | null;
  skip?: number | null;
  take?: number | null;
}

/**
 * The caller's own predictions on matches of the tenant's tournaments, by the match's kickoff then id. Acting on a
 * company other than their own (a reseller, a manager), the caller has none there: [].
 */
export async function myPredictions(scope: RequestScope, args: MyPredictionsArgs): Promise<PredictionRow[]> {
  const { viewer, tenant } = scope.requireTenant();
  const page = paging(args.skip, args.take);
  const status = statusList<PredictionStatus>(args.status);
  const tournamentIds = await visibleTournamentIds(scope, tenant.id, args.tournamentId);
  if (tournamentIds.length === 0 || viewer.companyId !== tenant.id) return [];
  return scope.db.prediction.findMany({
    where: {
      userId: viewer.id,
      match: { tournamentId: { in: tournamentIds } },
      ...(status ? { status: { in: status } } : {}),
    },
    orderBy: [{ match: { date: 'asc' } }, { id: 'asc' }],
    ...page,
  });
}
