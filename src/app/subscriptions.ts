// A subscription's re-check: what a subscriber may watch, and what an event shows them. The same guards and
// readers as the queries, run again for every event with the subscriber's own scope (events carry ids, never rows).
// The feed is src/live; the socket and its budgets are src/graphql/subscriptions.
import type { MatchRow, NotificationRow } from '../db/rows.ts';
import { notFound } from '../domain/errors.ts';
import type { RankedStanding } from '../domain/rankings.ts';
import { rankingsOf } from '../game/ranking-query.ts';
import { myStanding, rankingShown } from './rankings.ts';
import type { RequestScope } from './scope.ts';

/** Loads shared by the subscribers of one event (src/live/bus.ts EventReads); none by default. */
type SharedReads = {
  once<T>(key: string, load: () => Promise<T>): Promise<T>;
  audience?(key: string): Set<number>;
};
const unshared: SharedReads = { once: (_key, load) => load() };

/** The tournament's matches may be watched by anyone whose company plays it (as `tournament` reads it). */
export async function watchMatches(scope: RequestScope, tournamentId: number, reads = unshared): Promise<void> {
  const { tenant } = scope.requireTenant();
  const tournaments = await reads.once(`tournamentsByCompany:${tenant.id}`, () =>
    scope.loaders.tournamentsByCompany.load(tenant.id),
  );
  if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
}

/**
 * The match an event names, as `Match` shows it to this subscriber (its field resolvers apply their rights):
 * NOT_FOUND once it is not theirs to see. The row is the football tables', the same for every tenant.
 */
export async function updatedMatch(
  scope: RequestScope,
  tournamentId: number,
  matchId: number,
  reads = unshared,
): Promise<MatchRow> {
  await watchMatches(scope, tournamentId, reads);
  const match = await reads.once(`match:${matchId}`, () => scope.loaders.match.load(matchId));
  if (!match || match.tournamentId !== tournamentId) throw notFound('match', matchId);
  return match;
}

/**
 * The caller's standing may be watched where the general ranking may be read (its guards, once). Returns which
 * ranking events concern the subscriber: those of every company, and those of the company the request acts on. A
 * concerned subscriber joins the event's audience for its company, so standingNow reads them all at once.
 */
export async function watchRanking(
  scope: RequestScope,
  tournamentId: number,
): Promise<(event: { companyId?: number }, reads: SharedReads) => boolean> {
  await myStanding(scope, tournamentId);
  const { tenant, viewer } = scope.requireTenant();
  const audience = audienceKey(tournamentId, tenant.id);
  return (event, reads) => {
    const concerned = event.companyId === undefined || event.companyId === tenant.id;
    if (concerned) reads.audience?.(audience).add(viewer.id);
    return concerned;
  };
}

const audienceKey = (tournamentId: number, companyId: number) => `ranking:${tournamentId}:${companyId}`;

/**
 * The caller's standing now, as `ranking` shows it. For a live event, the standings of every subscriber of the
 * company in this process are read at once, the first time one of them asks (one statement per company and event,
 * whatever the number of subscribers); each subscriber is given only their own. The company's tournaments are read
 * once per event too, for the guards.
 */
export async function standingNow(
  scope: RequestScope,
  tournamentId: number,
  reads: SharedReads = unshared,
): Promise<RankedStanding | null> {
  const { tenant } = scope.requireTenant();
  const loader = scope.loaders.tournamentsByCompany;
  const tournaments = await reads.once(`tournamentsByCompany:${tenant.id}`, () => loader.load(tenant.id));
  loader.prime(tenant.id, tournaments);
  const { which, callerIncluded, viewerId } = await rankingShown(scope, { tournamentId });
  if (!callerIncluded) return null;
  const audience = reads.audience?.(audienceKey(tournamentId, tenant.id));
  if (!audience?.has(viewerId)) return myStanding(scope, tournamentId);
  const standings = await reads.once(`standings:${JSON.stringify(which)}`, () =>
    rankingsOf(scope.db, which, [...audience]),
  );
  return standings.get(viewerId) ?? null;
}

/** Anyone signed in hears of their own notifications. */
export function watchNotifications(scope: RequestScope): void {
  scope.requireViewer();
}

/** The caller's notification an event names (another user's never reaches them). */
export async function deliveredNotification(scope: RequestScope, notificationId: number): Promise<NotificationRow> {
  const viewer = scope.requireViewer();
  const row = await scope.db.notification.findFirst({ where: { id: notificationId, userId: viewer.id } });
  if (!row) throw notFound('notification', notificationId);
  return row;
}
