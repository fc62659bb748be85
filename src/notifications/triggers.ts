// Time-based triggers, run by the notifications tick: matches starting within 24 hours that users have not
// predicted, and dream finals closing within 48 hours that users have not picked.
import type { Db } from '../db/client.ts';
import { enqueue, type NotificationDraft } from './outbox.ts';

const HOUR = 3600e3;

/** Company ids taking part in (or owning) each tournament. */
async function participants(prisma: Db, tournamentIds: number[]): Promise<Map<number, number[]>> {
  const [links, owned] = await Promise.all([
    prisma.companyTournament.findMany({ where: { tournamentId: { in: tournamentIds } } }),
    prisma.tournament.findMany({
      where: { id: { in: tournamentIds }, ownerCompanyId: { not: null } },
      select: { id: true, ownerCompanyId: true },
    }),
  ]);
  const map = new Map<number, number[]>(tournamentIds.map((id) => [id, []]));
  for (const l of links) map.get(l.tournamentId)!.push(l.companyId);
  for (const t of owned) map.get(t.id)!.push(t.ownerCompanyId!);
  return map;
}

export async function pendingPredictionsTrigger(prisma: Db, now: Date): Promise<number> {
  const matches = await prisma.match.findMany({
    where: {
      date: { gt: now, lte: new Date(now.getTime() + 24 * HOUR) },
      status: { in: ['SCHEDULED', 'TIMED'] },
      OR: [{ alreadySentOpenNotification: false }, { alreadySentOpenNotification: null }],
    },
    include: { homeTeam: true, awayTeam: true },
  });
  if (matches.length === 0) return 0;
  const companies = await participants(prisma, [...new Set(matches.map((m) => m.tournamentId))]);
  let enqueued = 0;
  for (const match of matches) {
    enqueued += await prisma.$transaction(async (tx) => {
      // Claim the match first so two ticks never notify twice.
      const claimed = await tx.match.updateMany({
        where: { id: match.id, OR: [{ alreadySentOpenNotification: false }, { alreadySentOpenNotification: null }] },
        data: { alreadySentOpenNotification: true },
      });
      if (claimed.count === 0) return 0;
      const users = await tx.user.findMany({
        where: {
          companyId: { in: companies.get(match.tournamentId) ?? [] },
          deletedAt: null,
          predictions: { none: { matchId: match.id } },
        },
        select: { id: true },
      });
      const drafts: NotificationDraft[] = users.map((u) => ({
        userId: u.id,
        type: 'pendingMatchesPredictions',
        dedupeKey: `pendingMatchesPredictions:match:${match.id}:user:${u.id}`,
        payload: {
          matchId: match.id,
          kickoff: match.date.toISOString(),
          homeTeam: match.homeTeam.name,
          awayTeam: match.awayTeam.name,
        },
      }));
      return enqueue(tx, drafts);
    });
  }
  return enqueued;
}

export async function pendingDreamFinalsTrigger(prisma: Db, now: Date): Promise<number> {
  const settings = await prisma.dreamFinalsSetting.findMany({
    where: { isEnabled: true, limitRound: { date: { gt: now, lte: new Date(now.getTime() + 48 * HOUR) } } },
    include: { limitRound: true },
  });
  let enqueued = 0;
  for (const setting of settings) {
    const users = await prisma.user.findMany({
      where: { companyId: setting.companyId, deletedAt: null, dreamFinalPicks: { none: { settingId: setting.id } } },
      select: { id: true },
    });
    enqueued += await enqueue(
      prisma,
      users.map((u) => ({
        userId: u.id,
        type: 'pendingDreamFinalPrediction',
        dedupeKey: `pendingDreamFinalPrediction:setting:${setting.id}:user:${u.id}`,
        payload: { settingId: setting.id, closesAt: setting.limitRound.date.toISOString() },
      })),
    );
  }
  return enqueued;
}
