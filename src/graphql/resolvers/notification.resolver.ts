import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requireViewer, type Context } from '../context.ts';
import { badInput } from '../../domain/errors.ts';
import { Notification } from '../types/engagement.ts';
import { paging } from './paging.ts';

@Resolver()
export class NotificationResolver {
  @Query(() => [Notification], { description: "The caller's notifications, newest first." })
  myNotifications(
    @Ctx() ctx: Context,
    @Arg('unreadOnly', () => Boolean, { defaultValue: false }) unreadOnly: boolean,
    @Arg('skip', () => Int, { nullable: true }) skip?: number,
    @Arg('take', () => Int, { nullable: true }) take?: number,
  ) {
    const viewer = requireViewer(ctx);
    const page = paging(skip, take);
    return ctx.prisma.notification.findMany({ where: { userId: viewer.id, ...(unreadOnly ? { readAt: null } : {}) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...page });
  }

  @Mutation(() => Int, { description: "Marks the caller's notifications read (the given ids, or all when ids is omitted); answers how many changed." })
  async markNotificationsRead(@Ctx() ctx: Context, @Arg('ids', () => [Int], { nullable: true }) ids?: number[]) {
    const viewer = requireViewer(ctx);
    if (ids && ids.length > 1000) throw badInput('at most 1000 ids at a time', 'ids');
    const r = await ctx.prisma.notification.updateMany({ where: { userId: viewer.id, readAt: null, ...(ids ? { id: { in: ids } } : {}) }, data: { readAt: ctx.now } });
    return r.count;
  }
}
