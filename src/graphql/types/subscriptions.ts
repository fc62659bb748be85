import { Field, Int, ObjectType } from 'type-graphql';
import { Notification } from './engagement.ts';
import { Match } from './football.ts';
import { RankingMe } from './ranking.ts';

const MISSED =
  'true when events may have been missed (this server lost its event feed for a moment, or the subscription was ' +
  'resumed with an `after` older than the server keeps events): refetch what you show (the other fields are then ' +
  'null). Subscriptions stay open.';

const CURSOR =
  'Where this event stands in the feed: keep the last one received and subscribe again with after: <cursor> to ' +
  'get what was missed meanwhile (events are kept LIVE_RESUME_WINDOW_MINUTES). null when there is none to resume ' +
  'after (missed events, or an event the server could not keep).';

@ObjectType({ description: "A match's score, status, elapsed time or kickoff changed." })
export class MatchUpdate {
  @Field(() => Match, { nullable: true, description: 'The match as it is now, as queries show it to the caller.' })
  match?: Match | null;
  @Field(() => Boolean, { description: MISSED }) missedEvents!: boolean;
  @Field(() => String, { nullable: true, description: CURSOR }) cursor?: string | null;
}

@ObjectType({ simpleResolvers: true, description: "The tournament's ranking moved in the caller's company." })
export class RankingChange {
  @Field(() => Int, { description: 'The tournament whose ranking moved.' }) tournamentId!: number;
  @Field(() => RankingMe, {
    nullable: true,
    description: "The caller's new standing in the general ranking; null when the caller is not ranked there.",
  })
  me?: RankingMe | null;
  @Field(() => Boolean, {
    description: "Always true: the ranking's pages changed, so refetch the page shown.",
  })
  pageChanged!: boolean;
  @Field(() => Boolean, { description: MISSED.replace(' (the other fields are then null)', '') })
  missedEvents!: boolean;
  @Field(() => String, { nullable: true, description: CURSOR }) cursor?: string | null;
}

@ObjectType({ description: 'A notification of the caller was delivered.' })
export class NotificationEvent {
  @Field(() => Notification, {
    description: 'The notification delivered; null when missedEvents is true.',
    nullable: true,
  })
  notification?: Notification | null;
  @Field(() => Boolean, { description: MISSED }) missedEvents!: boolean;
  @Field(() => String, { nullable: true, description: CURSOR }) cursor?: string | null;
}
