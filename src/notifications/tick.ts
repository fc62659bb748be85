// One run of the notification work: time-based triggers, then delivery of what is pending.
import type { Db } from '../db/client.ts';
import { deliverPending, type NotificationSender } from './sender.ts';
import { pendingDreamFinalsTrigger, pendingPredictionsTrigger } from './triggers.ts';

export async function notificationsTick(prisma: Db, sender: NotificationSender, now = new Date()) {
  const pendingPredictions = await pendingPredictionsTrigger(prisma, now);
  const pendingDreamFinals = await pendingDreamFinalsTrigger(prisma, now);
  const delivery = await deliverPending(prisma, sender);
  return { pendingPredictions, pendingDreamFinals, ...delivery };
}
