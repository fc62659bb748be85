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
import { resumeCursor, subscriptionStream, type LiveDelivery } from '../subscriptions/stream.ts';
import { MatchUpdate, NotificationEvent, RankingChange } from '../types/subscriptions.ts';

type SubscribeData = Omit<ResolverData<Context>, 'root'> & { args: Record<string, unknown> };

const AFTER =
  'The cursor of the last event received: the events since (kept LIVE_RESUME_WINDOW_MINUTES) come first, in order, ' +
  'then live ones; past the window the first is missedEvents: true. Leave it out to hear live events only.';

/** The cursor a delivery carries, as the schema gives it (text: clients keep it as they got it). */
const cursorOf = (delivery: LiveDelivery) =>
  !delivery.missed && delivery.event.cursor !== undefined ? String(delivery.event.cursor) : null;

@Resolver()
export class SubscriptionsResolver {
  @Subscription(() => MatchUpdate, {
    description:
      "Each change of a match of the tournament (score, status, elapsed time, kickoff) as it is set. The caller's " +
      'company must play the tournament. Over WebSocket only (graphql-transport-ws at /graphql).',
    subscribe: async ({ args, context }: SubscribeData) => {
      const channel = subscriptionChannelOf(context);
      const tournamentId = args.tournamentId as number;
      const after = resumeCursor(args.after);
      await watchMatches(context.scope, tournamentId);
      return subscriptionStream(channel, matchTopic(tournamentId), undefined, { after });
    },
  })
  async matchUpdated(
    @Root() delivery: LiveDelivery,
    @Arg('tournamentId', () => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' })
    tournamentId: number,
    @Arg('after', () => String, { nullable: true, description: AFTER }) _after: string | null,
    @Ctx() ctx: Context,
  ): Promise<MatchUpdate> {
    if (delivery.missed || delivery.event.kind !== 'match') {
      await watchMatches(ctx.scope, tournamentId); // the caller is asked again, even for word of missed events
      return { match: null, missedEvents: true, cursor: null };
    }
    const { event, reads } = delivery;
    const match = await updatedMatch(ctx.scope, tournamentId, event.matchId, reads);
    return { match, missedEvents: false, cursor: cursorOf(delivery) };
  }

  @Subscription(() => RankingChange, {
    description:
      "Each time the tournament's ranking moves in the caller's company (a result, a correction, a change of rules " +
      "or bonus answers), with the caller's new standing. Where the general ranking may be read. Over WebSocket only.",
    subscribe: async ({ args, context }: SubscribeData) => {
      const channel = subscriptionChannelOf(context);
      const tournamentId = args.tournamentId as number;
      const after = resumeCursor(args.after);
      const concerns = await watchRanking(context.scope, tournamentId);
      return subscriptionStream(
        channel,
        rankingTopic(tournamentId),
        (event, reads) => event.kind === 'ranking' && concerns(event, reads),
        { after, fold: true },
      );
    },
  })
  async rankingChanged(
    @Root() delivery: LiveDelivery,
    @Arg('tournamentId', () => Int, {
      description: 'A tournament the company plays, whose general ranking the caller may read.',
    })
    tournamentId: number,
    @Arg('after', () => String, { nullable: true, description: AFTER }) _after: string | null,
    @Ctx() ctx: Context,
  ): Promise<RankingChange> {
    const me = await standingNow(ctx.scope, tournamentId, delivery.reads);
    return { tournamentId, me, pageChanged: true, missedEvents: Boolean(delivery.missed), cursor: cursorOf(delivery) };
  }

  @Subscription(() => NotificationEvent, {
    description: "Each of the caller's notifications as it is delivered. Over WebSocket only.",
    subscribe: ({ args, context }: SubscribeData) => {
      const channel = subscriptionChannelOf(context);
      const after = resumeCursor(args.after);
      watchNotifications(context.scope);
      // The caller's own topic: a cursor replays no one else's notifications.
      return subscriptionStream(channel, notificationTopic(context.scope.requireViewer().id), undefined, { after });
    },
  })
  async notificationReceived(
    @Root() delivery: LiveDelivery,
    @Arg('after', () => String, { nullable: true, description: AFTER }) _after: string | null,
    @Ctx() ctx: Context,
  ): Promise<{ notification: NotificationRow | null; missedEvents: boolean; cursor: string | null }> {
    if (delivery.missed || delivery.event.kind !== 'notification') {
      watchNotifications(ctx.scope);
      return { notification: null, missedEvents: true, cursor: null };
    }
    const notification = await deliveredNotification(ctx.scope, delivery.event.notificationId);
    return { notification, missedEvents: false, cursor: cursorOf(delivery) };
  }
}
