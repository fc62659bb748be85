// Claims rows of a delivery queue (Notification, OutgoingEmail) for one sender: a claimed row is leased to it
// (claimedUntil) and no other process takes it until the lease ends, so several replicas draining one queue send
// each row once. PostgreSQL claims a batch in one statement and skips rows another process is claiming at that
// moment (FOR UPDATE SKIP LOCKED), so replicas never wait on each other; SQLite, whose writers take turns anyway,
// claims row by row with a conditional update.
import { providerOf, type Db } from './client.ts';
import { Prisma } from './sql.ts';
import { aliased, col, Model, names, query, rowsOf, table } from './typed-sql.ts';

/** The queues' tables: `Model.Notification` or `Model.OutgoingEmail`. */
export type Queue = typeof Model.Notification | typeof Model.OutgoingEmail;

/** Claimable: pending, and held by no one (never claimed, or the claim's lease or retry wait has ended). */
const claimable = (now: Date) => ({
  status: 'PENDING' as const,
  OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }],
});

/** Rows claimed together: their lease ends at `until` unless each is taken (takeClaimed) before it is sent. */
export interface ClaimedBatch {
  ids: number[];
  until: Date;
}

/**
 * Claims up to `limit` claimable rows, oldest first, a batch at a time: each batch is claimed (its lease starts)
 * once the caller is done with the one before, and starts after it, so a call meets each row at most once.
 */
export async function* claimInBatches(
  prisma: Db,
  queue: Queue,
  { limit, batchSize, leaseMs }: { limit: number; batchSize: number; leaseMs: number },
): AsyncGenerator<ClaimedBatch> {
  for (let afterId = 0, claimed = 0; claimed < limit;) {
    const until = new Date(Date.now() + leaseMs);
    const ids = await claimBatch(prisma, queue, { afterId, limit: Math.min(batchSize, limit - claimed), until });
    if (ids.length === 0) return;
    afterId = ids[ids.length - 1];
    claimed += ids.length;
    yield { ids, until };
  }
}

/**
 * Renews one row's lease right before it is sent, if the batch's claim still holds it: a batch sent slowly may
 * outlast its lease, and another process may have claimed the rest since. False: leave the row to that process.
 */
export async function takeClaimed(
  prisma: Db,
  queue: Queue,
  id: number,
  until: Date,
  leaseMs: number,
): Promise<boolean> {
  const claim = {
    where: { id, status: 'PENDING' as const, claimedUntil: until },
    data: { claimedUntil: new Date(Math.max(Date.now() + leaseMs, until.getTime() + 1)) },
  };
  const taken =
    queue === Model.Notification ? prisma.notification.updateMany(claim) : prisma.outgoingEmail.updateMany(claim);
  return (await taken).count === 1;
}

/** PostgreSQL: leases to `until` up to `limit` claimable rows above `afterId` that no one is claiming; their ids. */
const claimNext = query({ id: 'number' }, (queue: Queue, afterId: number, limit: number, until: Date, now: Date) => {
  const q = aliased(queue, 'q');
  return Prisma.sql`
      UPDATE ${table(queue)} SET ${names(queue, 'claimedUntil')} = ${until}::timestamp
      WHERE ${col(queue, 'id')} IN (
        SELECT ${q.c('id')} FROM ${q}
        WHERE ${q.c('id')} > ${afterId} AND ${q.c('status')} = 'PENDING'
          AND (${q.c('claimedUntil')} IS NULL OR ${q.c('claimedUntil')} < ${now}::timestamp)
        ORDER BY ${q.c('id')} LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING ${col(queue, 'id')} AS "id"`;
});

/** Claims up to `limit` claimable rows with ids above `afterId`, oldest first, until `until`; their ids in order. */
async function claimBatch(
  prisma: Db,
  queue: Queue,
  { afterId, limit, until }: { afterId: number; limit: number; until: Date },
): Promise<number[]> {
  if (providerOf(prisma) === 'postgresql') {
    const now = new Date();
    const rows = await rowsOf(prisma, claimNext, queue, afterId, limit, until, now);
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }
  const claimed: number[] = [];
  let cursor = afterId;
  while (claimed.length < limit) {
    const where = { id: { gt: cursor }, ...claimable(new Date()) };
    const page = { where, select: { id: true }, orderBy: { id: 'asc' as const }, take: limit - claimed.length };
    const candidates =
      queue === Model.Notification
        ? await prisma.notification.findMany(page)
        : await prisma.outgoingEmail.findMany(page);
    if (candidates.length === 0) break;
    for (const { id } of candidates) {
      cursor = id;
      const claim = { where: { id, ...claimable(new Date()) }, data: { claimedUntil: until } };
      const { count } =
        queue === Model.Notification
          ? await prisma.notification.updateMany(claim)
          : await prisma.outgoingEmail.updateMany(claim);
      if (count === 1) claimed.push(id); // else another process has it
    }
  }
  return claimed;
}

/** This file's statements, for the test that runs each on PostgreSQL (test/db/typed-sql.test.ts). */
export const claimSql = { claimNext };
