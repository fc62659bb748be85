// The caller's notifications. The work is src/app/notifications.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as notifications from '../../app/notifications.ts';
import type { Context } from '../context.ts';
import { Notification } from '../types/engagement.ts';
import { NotificationSettingsInput, UserNotificationSettings } from '../types/settings.ts';

@Resolver()
export class NotificationResolver {
  @Query(() => [Notification], { description: "The caller's notifications, newest first." })
  myNotifications(
    @Ctx() ctx: Context,
    @Arg('unreadOnly', () => Boolean, { description: 'true: only the unread ones.', defaultValue: false })
    unreadOnly: boolean,
    @Arg('skip', () => Int, { description: 'Items to pass over, >= 0 (default 0).', nullable: true }) skip?: number,
    @Arg('take', () => Int, { description: 'Items to return, 1 to 100 (default 20).', nullable: true }) take?: number,
  ) {
    return notifications.myNotifications(ctx.scope, { unreadOnly, skip, take });
  }

  @Mutation(() => Int, {
    description:
      "Marks the caller's notifications read (the given ids, or all when ids is omitted); returns how many changed.",
  })
  markNotificationsRead(
    @Ctx() ctx: Context,
    @Arg('ids', () => [Int], {
      description: "Ids of the caller's notifications, at most 1000; left out: all.",
      nullable: true,
    })
    ids?: number[],
  ) {
    return notifications.markNotificationsRead(ctx.scope, ids);
  }

  @Mutation(() => UserNotificationSettings, {
    description:
      "Changes the caller's own notification choices (fields left out keep their value) and returns them. Admins " +
      "set the company's default reminderHoursBefore with updateCompany's notificationSettings.",
  })
  updateNotificationSettings(
    @Ctx() ctx: Context,
    @Arg('input', () => NotificationSettingsInput, { description: 'The choices to change.' })
    input: NotificationSettingsInput,
  ) {
    return notifications.updateNotificationSettings(ctx.scope, input);
  }
}
