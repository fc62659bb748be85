// Delivery: a pluggable sender drains PENDING notifications. The default one writes a log line; a push or
// e-mail provider implements the same interface.
import type { Db } from '../db/client.ts';

export interface OutgoingNotification {
  id: number;
  userId: number;
  type: string;
  payload: unknown;
  sendEmail: boolean;
}

export interface NotificationSender {
  send(notification: OutgoingNotification): Promise<void>;
}

export function loggingSender(log: (obj: object, msg: string) => void): NotificationSender {
  return {
    async send(n) {
      log({ notificationId: n.id, userId: n.userId, type: n.type, email: n.sendEmail }, 'notification sent');
    },
  };
}

const MAX_ATTEMPTS = 5;

/** Sends up to `limit` pending notifications; failures are retried on later runs, up to 5 attempts. */
export async function deliverPending(
  prisma: Db,
  sender: NotificationSender,
  limit = 500,
): Promise<{ sent: number; failed: number }> {
  const pending = await prisma.notification.findMany({
    where: { status: 'PENDING' },
    orderBy: { id: 'asc' },
    take: limit,
  });
  let sent = 0;
  let failed = 0;
  for (const n of pending) {
    try {
      await sender.send(n);
      await prisma.notification.update({
        where: { id: n.id },
        data: { status: 'SENT', sentAt: new Date(), attempts: { increment: 1 } },
      });
      sent++;
    } catch (err) {
      const attempts = n.attempts + 1;
      await prisma.notification.update({
        where: { id: n.id },
        data: {
          attempts,
          lastError: String((err as Error).message ?? err).slice(0, 500),
          status: attempts >= MAX_ATTEMPTS ? 'FAILED' : 'PENDING',
        },
      });
      failed++;
    }
  }
  return { sent, failed };
}
