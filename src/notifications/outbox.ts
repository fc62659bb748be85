// The notifications outbox: triggers enqueue rows, a sender drains them. A type in the user's disabledTypes
// or the company's forbiddenTypes is never enqueued; emailEnabled decides whether the e-mail channel is used.
// dedupeKey makes every trigger idempotent: running it twice enqueues nothing twice.
import type { Tx } from '../db/client.ts';
import { companyNotificationSettings, userNotificationSettings } from '../domain/defaults.ts';

export type NotificationTypeName =
  | 'pendingMatchesPredictions'
  | 'rankingsUpdated'
  | 'pendingDreamFinalPrediction'
  | 'internalRankingInvitationReceived'
  | 'internalRankingInvitationAccepted'
  | 'internalRankingInvitationRejected'
  | 'predictionEnteredForYou';

/** What a payload holds: JSON (a digest lists its matches). */
export type PayloadValue = string | number | boolean | null | PayloadValue[] | { [key: string]: PayloadValue };

export interface NotificationDraft {
  userId: number;
  type: NotificationTypeName;
  payload: Record<string, PayloadValue>;
  dedupeKey: string;
}

/** Enqueues the drafts the users and their companies allow and that are not queued already; returns how many. */
export async function enqueue(tx: Tx, drafts: NotificationDraft[]): Promise<number> {
  if (drafts.length === 0) return 0;
  let created = 0;
  for (let i = 0; i < drafts.length; i += 2000) {
    const batch = drafts.slice(i, i + 2000);
    const users = await tx.user.findMany({
      where: { id: { in: [...new Set(batch.map((d) => d.userId))] }, deletedAt: null },
      select: { id: true, companyId: true, notificationSettings: true },
    });
    const companies = await tx.company.findMany({
      where: { id: { in: [...new Set(users.map((u) => u.companyId))] } },
      select: { id: true, notificationSettings: true },
    });
    const forbidden = new Map(
      companies.map((c) => [c.id, new Set(companyNotificationSettings(c.notificationSettings).forbiddenTypes)]),
    );
    const userById = new Map(
      users.map((u) => [u.id, { ...u, settings: userNotificationSettings(u.notificationSettings) }]),
    );
    const existing = new Set(
      (
        await tx.notification.findMany({
          where: { dedupeKey: { in: batch.map((d) => d.dedupeKey) } },
          select: { dedupeKey: true },
        })
      ).map((n) => n.dedupeKey),
    );
    const rows = batch.flatMap((d) => {
      const user = userById.get(d.userId);
      if (!user || existing.has(d.dedupeKey)) return [];
      if (user.settings.disabledTypes.includes(d.type) || forbidden.get(user.companyId)?.has(d.type)) return [];
      existing.add(d.dedupeKey);
      return [
        {
          companyId: user.companyId,
          userId: d.userId,
          type: d.type,
          payload: d.payload,
          dedupeKey: d.dedupeKey,
          sendEmail: user.settings.emailEnabled,
        },
      ];
    });
    if (rows.length) created += (await tx.notification.createMany({ data: rows })).count;
  }
  return created;
}
