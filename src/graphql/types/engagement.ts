// Notifications and internal rankings (private leagues).
import { Field, Int, ObjectType } from 'type-graphql';
import { NotificationType } from '../enums.ts';
import { DateTime, JSONObject } from '../scalars.ts';

@ObjectType({ description: 'A notification of the caller.', simpleResolvers: true })
export class Notification {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => NotificationType, { description: 'What happened.' }) type!: string;
  @Field(() => JSONObject, { description: 'Details for the type, e.g. the match or league ids.' }) payload!: object;
  @Field(() => DateTime, { description: 'When it was created (UTC).' }) createdAt!: Date;
  @Field(() => DateTime, { description: 'When the caller marked it read (UTC); null while unread.', nullable: true })
  readAt?: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'A private league inside a company, ranked on one tournament.' })
export class InternalRanking {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: '1 to 100 characters.' }) name!: string;
  @Field(() => Int, { description: 'The tournament it ranks.' }) tournamentId!: number;
  @Field(() => DateTime, { description: 'When it was created (UTC).' }) createdAt!: Date;
}

@ObjectType({ description: 'An invitation to a private league.', simpleResolvers: true })
export class InternalRankingInvitation {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'PENDING, ACCEPTED or REJECTED.' }) status!: string;
  @Field(() => DateTime, { description: 'When it was sent (UTC).' }) createdAt!: Date;
}
