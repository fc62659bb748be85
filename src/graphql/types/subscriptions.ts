import { Field, Int, ObjectType } from 'type-graphql';
import { Notification } from './engagement.ts';
import { Match } from './football.ts';
import { RankingMe } from './ranking.ts';

const MISSED =
  'true when this server lost its event feed for a moment and events may have been missed: refetch what you show ' +
  '(the other fields are then null). Subscriptions stay open.';

@ObjectType({ description: "A match's score, status, elapsed time or kickoff changed." })
export class MatchUpdate {
  @Field(() => Match, { nullable: true, description: 'The match as it is now, as queries show it to the caller.' })
  match?: Match | null;
  @Field(() => Boolean, { description: MISSED }) missedEvents!: boolean;
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
}

@ObjectType({ description: 'A notification of the caller was delivered.' })
export class NotificationEvent {
  @Field(() => Notification, {
    description: 'The notification delivered; null when missedEvents is true.',
    nullable: true,
  })
  notification?: Notification | null;
  @Field(() => Boolean, { description: MISSED }) missedEvents!: boolean;
}
