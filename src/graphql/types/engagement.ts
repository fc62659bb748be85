// Notifications and internal rankings (private leagues).
import { Field, Int, ObjectType } from 'type-graphql';
import { NotificationType } from '../enums.ts';
import { DateTime, JSONObject } from '../scalars.ts';

@ObjectType({ simpleResolvers: true })
export class Notification {
  @Field(() => Int) id!: number;
  @Field(() => NotificationType) type!: string;
  @Field(() => JSONObject) payload!: object;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) readAt?: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'A private league inside a company, ranked on one tournament.' })
export class InternalRanking {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => Int) tournamentId!: number;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class InternalRankingInvitation {
  @Field(() => Int) id!: number;
  @Field(() => String, { description: 'PENDING, ACCEPTED or REJECTED.' }) status!: string;
  @Field(() => DateTime) createdAt!: Date;
}
