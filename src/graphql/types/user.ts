import { Field, Int, ObjectType } from 'type-graphql';
import { LoginProviderName, Role } from '../enums.ts';
import { DateTime } from '../scalars.ts';

/** What both forms of a user show alike (spec 2.3); not a type of the schema by itself. */
@ObjectType({ simpleResolvers: true })
export abstract class UserShape {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => String) externalId!: string;
  @Field(() => String) loginProviderId!: string;
  @Field(() => LoginProviderName, { nullable: true }) loginProviderName?: string | null;
  @Field(() => String) preferredLanguage!: string;
  @Field(() => String, { nullable: true }) profilePictureUrl?: string | null;
  @Field(() => String, { nullable: true }) portraitPictureUrl?: string | null;
  @Field(() => Role) role!: string;
  @Field(() => DateTime, { nullable: true }) deletedAt?: Date | null;
  @Field(() => Int, { nullable: true }) loginCount?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'A user, full form (spec 2.3).' })
export class User extends UserShape {
  @Field(() => String, { nullable: true }) timezone?: string | null;
  @Field(() => Boolean) requiresAccountRecovery!: boolean;
  @Field(() => Boolean) showInitialTour!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) lastActiveDate?: Date | null;
  @Field(() => Int, { nullable: true }) areaLevel1Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel2Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel3Id?: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'A user, compact form (spec 2.3), nested in predictions, invitations and tournaments.',
})
export class UserCompact extends UserShape {}

@ObjectType({ simpleResolvers: true })
export class FirebaseToken {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) platform?: string | null;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class InternalRankingMembership {
  @Field(() => Int) id!: number;
  @Field(() => Int) rankingId!: number;
  @Field(() => DateTime) joinedAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class TriviaAnswer {
  @Field(() => Int) id!: number;
  @Field(() => Int) questionId!: number;
  @Field(() => Int) option!: number;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class TriviaSolution {
  @Field(() => Int) id!: number;
  @Field(() => Int) questionId!: number;
  @Field(() => Boolean) isCorrect!: boolean;
  @Field(() => Int) points!: number;
}
