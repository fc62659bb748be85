// The caller's own notifications: read a page, mark some or all read.
import type { NotificationRow } from '../db/rows.ts';
import { badInput } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import type { RequestScope } from './scope.ts';

/** Newest first; `unreadOnly` leaves out the read ones. A refusal rejects the promise, as every operation's does. */
export async function myNotifications(
  scope: RequestScope,
  args: { unreadOnly: boolean; skip?: number; take?: number },
): Promise<NotificationRow[]> {
  const viewer = scope.requireViewer();
  const page = paging(args.skip, args.take);
  return scope.db.notification.findMany({
    where: { userId: viewer.id, ...(args.unreadOnly ? { readAt: null } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    ...page,
  });
}

/** Marks the given ids (or all) of the caller's unread notifications read; returns how many changed. */
export async function markNotificationsRead(scope: RequestScope, ids?: number[]): Promise<number> {
  const viewer = scope.requireViewer();
  if (ids && ids.length > 1000) throw badInput('at most 1000 ids at a time', 'ids');
  const changed = await scope.write((tx) =>
    tx.notification.updateMany({
      where: { userId: viewer.id, readAt: null, ...(ids ? { id: { in: ids } } : {}) },
      data: { readAt: scope.now },
    }),
  );
  return changed.count;
}
