// Delivery: drains PENDING notifications through a pluggable sender (the default writes a log line; a push
// provider implements the same interface) and, for users who keep e-mail on, queues the e-mail in the same
// transaction that marks the notification sent. Notifications are claimed in batches first (src/db/claims.ts), so
// two processes never deliver one at once.
import { claimInBatches, takeClaimed } from '../db/claims.ts';
import type { Db } from '../db/client.ts';
import type { NotificationRow } from '../db/rows.ts';
import { Model } from '../db/typed-sql.ts';
import type { LiveEvent } from '../live/events.ts';
import { queueEmail } from '../mail/outbox.ts';
import { notificationEmail } from './email-text.ts';

export interface OutgoingNotification {
  id: number;
  userId: number;
  type: string;
  payload: unknown;
  sendEmail: boolean;
}

export interface NotificationSender {
  send(notification: OutgoingNotification): Promise<void>;
  /** Once the notification is recorded as sent (its transaction committed). */
  delivered?(notification: OutgoingNotification): void;
}

export function loggingSender(log: (obj: object, msg: string) => void): NotificationSender {
  return {
    async send(n) {
      log({ notificationId: n.id, userId: n.userId, type: n.type, sendEmail: n.sendEmail }, 'notification sent');
    },
  };
}

/**
 * Also tells the user's live subscribers (notificationReceived), on whichever replica they are connected: one
 * publish per delivery, after it is recorded, and delivery claims each notification once across replicas.
 */
export function withLiveEvents(
  sender: NotificationSender,
  live: { publish(event: LiveEvent): void },
): NotificationSender {
  return {
    send: (n) => sender.send(n),
    delivered(n) {
      sender.delivered?.(n);
      live.publish({ kind: 'notification', userId: n.userId, notificationId: n.id });
    },
  };
}

const MAX_ATTEMPTS = 5;
const LEASE_MS = 60_000;
/** Claimed at a time; each notification's lease is renewed right before it is sent (takeClaimed). */
const CLAIM_BATCH = 50;

/**
 * Sends up to `limit` pending notifications; failures are retried on later runs, up to 5 attempts. `emails` counts
 * the e-mails queued (src/mail/delivery.ts sends them).
 */
export async function deliverPending(
  prisma: Db,
  sender: NotificationSender,
  limit = 500,
): Promise<{ sent: number; failed: number; emails: number }> {
  let sent = 0;
  let failed = 0;
  let emails = 0;
  const batches = claimInBatches(prisma, Model.Notification, { limit, batchSize: CLAIM_BATCH, leaseMs: LEASE_MS });
  for await (const { ids, until } of batches) {
    for (const n of await prisma.notification.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })) {
      if (!(await takeClaimed(prisma, Model.Notification, n.id, until, LEASE_MS))) continue; // the lease ran out
      const outcome = await deliverOne(prisma, sender, n);
      if (outcome === null) failed++;
      else {
        sent++;
        emails += outcome;
      }
    }
  }
  return { sent, failed, emails };
}

/** Sends one claimed notification: the e-mails it queued (0 or 1), or null when it failed. */
async function deliverOne(prisma: Db, sender: NotificationSender, n: NotificationRow): Promise<number | null> {
  try {
    await sender.send(n);
    const emails = await prisma.$transaction(async (tx) => {
      await tx.notification.update({
        where: { id: n.id },
        data: { status: 'SENT', sentAt: new Date(), attempts: { increment: 1 }, claimedUntil: null },
      });
      if (!n.sendEmail) return 0;
      const user = await tx.user.findFirst({ where: { id: n.userId, deletedAt: null } });
      if (!user) return 0;
      await queueEmail(tx, {
        to: user.email,
        kind: `notification:${n.type}`,
        ...notificationEmail(n.type, n.payload, user.name),
      });
      return 1;
    });
    sender.delivered?.(n);
    return emails;
  } catch (err) {
    const attempts = n.attempts + 1;
    await prisma.notification.update({
      where: { id: n.id },
      data: {
        attempts,
        lastError: String((err as Error).message ?? err).slice(0, 500),
        status: attempts >= MAX_ATTEMPTS ? 'FAILED' : 'PENDING',
        claimedUntil: null,
      },
    });
    return null;
  }
}
