// Subscriptions. What may be watched and what an event shows are src/app/subscriptions.ts's; these pick the topic
// and map each event to its result, read with the subscriber's own fresh scope. The socket: src/graphql/subscriptions.
import { Arg, Ctx, Int, Resolver, Root, Subscription, type ResolverData } from 'type-graphql';
import {
  deliveredNotification,
  standingNow,
  updatedMatch,
  watchMatches,
  watchNotifications,
  watchRanking,
} from '../../app/subscriptions.ts';
import type { NotificationRow } from '../../db/rows.ts';
import { matchTopic, notificationTopic, rankingTopic } from '../../live/events.ts';
import type { Context } from '../context.ts';
import { subscriptionChannelOf } from '../subscriptions/channel.ts';
import { subscriptionStream, type LiveDelivery } from '../subscriptions/stream.ts';
import { MatchUpdate, NotificationEvent, RankingChange } from '../types/subscriptions.ts';

type SubscribeData = Omit<ResolverData<Context>, 'root'> & { args: Record<string, unknown> };

@Resolver()
export class SubscriptionsResolver {
  @Subscription(() => MatchUpdate, {
    description:
      "Each change of a match of the tournament (score, status, elapsed time, kickoff) as it is set. The caller's " +
      'company must play the tournament. Over WebSocket only (graphql-transport-ws at /graphql).',
    subscribe: async ({ args, context }: SubscribeData) => {
      const channel = subscriptionChannelOf(context);
      const tournamentId = args.tournamentId as number;
      await watchMatches(context.scope, tournamentId);
      return subscriptionStream(channel, matchTopic(tournamentId));
    },
  })
  async matchUpdated(
    @Root() delivery: LiveDelivery,
    @Arg('tournamentId', () => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' })
    tournamentId: number,
    @Ctx() ctx: Context,
  ): Promise<MatchUpdate> {
    if (delivery.missed || delivery.event.kind !== 'match') {
      await watchMatches(ctx.scope, tournamentId); // the caller is asked again, even for word of missed events
      return { match: null, missedEvents: true };
    }
    const { event, reads } = delivery;
    return { match: await updatedMatch(ctx.scope, tournamentId, event.matchId, reads), missedEvents: false };
  }

  @Subscription(() => RankingChange, {
    description:
      "Each time the tournament's ranking moves in the caller's company (a result, a correction, a change of rules " +
      "or bonus answers), with the caller's new standing. Where the general ranking may be read. Over WebSocket only.",
    subscribe: async ({ args, context }: SubscribeData) => {
      const channel = subscriptionChannelOf(context);
      const tournamentId = args.tournamentId as number;
      const concerns = await watchRanking(context.scope, tournamentId);
      return subscriptionStream(
        channel,
        rankingTopic(tournamentId),
        (event, reads) => event.kind === 'ranking' && concerns(event, reads),
      );
    },
  })
  async rankingChanged(
    @Root() delivery: LiveDelivery,
    @Arg('tournamentId', () => Int, {
      description: 'A tournament the company plays, whose general ranking the caller may read.',
    })
    tournamentId: number,
    @Ctx() ctx: Context,
  ): Promise<RankingChange> {
    const me = await standingNow(ctx.scope, tournamentId, delivery.reads);
    return { tournamentId, me, pageChanged: true, missedEvents: Boolean(delivery.missed) };
  }

  @Subscription(() => NotificationEvent, {
    description: "Each of the caller's notifications as it is delivered. Over WebSocket only.",
    subscribe: ({ context }: SubscribeData) => {
      const channel = subscriptionChannelOf(context);
      watchNotifications(context.scope);
      return subscriptionStream(channel, notificationTopic(context.scope.requireViewer().id));
    },
  })
  async notificationReceived(
    @Root() delivery: LiveDelivery,
    @Ctx() ctx: Context,
  ): Promise<{ notification: NotificationRow | null; missedEvents: boolean }> {
    if (delivery.missed || delivery.event.kind !== 'notification') {
      watchNotifications(ctx.scope);
      return { notification: null, missedEvents: true };
    }
    const notification = await deliveredNotification(ctx.scope, delivery.event.notificationId);
    return { notification, missedEvents: false };
  }
}
