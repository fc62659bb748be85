// One run of the notification work: time-based triggers, then delivery of what is pending. Behind several replicas
// every one ticks: the triggers run in the one that takes the period's lease (src/db/leases.ts), so their work is
// done once per period and not once per replica (it is idempotent too: claimed matches, dedupe keys); delivery runs
// in each, sharing the queue by claims (src/db/claims.ts).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { takeLease } from '../db/leases.ts';
import { deliverPending, type NotificationSender } from './sender.ts';
import { pendingDreamFinalsTrigger, pendingPredictionsTrigger } from './triggers.ts';

/** This process as a lease holder (the host and pid say who, for whoever reads the table). */
const HOLDER = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
const TRIGGERS_LEASE = 'notifications:triggers';

export interface TickOptions {
  now?: Date;
  /** The triggers run at most once per this many milliseconds across processes; unset, they run every time. */
  triggersOncePerMs?: number;
}

export async function notificationsTick(prisma: Db, sender: NotificationSender, options: TickOptions = {}) {
  const { now = new Date(), triggersOncePerMs } = options;
  const triggers =
    triggersOncePerMs === undefined || (await takeLease(prisma, TRIGGERS_LEASE, HOLDER, triggersOncePerMs, now));
  const pendingPredictions = triggers ? await pendingPredictionsTrigger(prisma, now) : 0;
  const pendingDreamFinals = triggers ? await pendingDreamFinalsTrigger(prisma, now) : 0;
  const delivery = await deliverPending(prisma, sender);
  return { triggers, pendingPredictions, pendingDreamFinals, ...delivery };
}
