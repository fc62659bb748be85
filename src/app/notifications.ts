// The caller's own notifications: read a page, mark some or all read, choose which come and when.
import type { NotificationRow } from '../db/rows.ts';
import { userNotificationSettings } from '../domain/defaults.ts';
import { badInput } from '../domain/errors.ts';
import {
  changeNotificationSettings,
  type NotificationSettingsChange,
  type UserNotificationSettings,
} from '../domain/notification-settings.ts';
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

/**
 * The caller's own notification choices (disabled types, e-mail, the hours before predictions close that they are
 * reminded): what is given changes, the rest keeps its value. Returns the settings as stored.
 */
export async function updateNotificationSettings(
  scope: RequestScope,
  change: NotificationSettingsChange,
): Promise<UserNotificationSettings> {
  const viewer = scope.requireViewer();
  return scope.write(async (tx) => {
    const row = await tx.user.findUniqueOrThrow({ where: { id: viewer.id }, select: { notificationSettings: true } });
    const result = changeNotificationSettings(userNotificationSettings(row.notificationSettings), change);
    if (!result.ok) throw badInput(result.message, result.argument);
    await tx.user.update({ where: { id: viewer.id }, data: { notificationSettings: result.value } });
    return result.value;
  });
}
