import { Field, Int, ObjectType } from 'type-graphql';
import { LoginProviderName, Role } from '../enums.ts';
import { DateTime } from '../scalars.ts';

// Fields shared by both forms. recoverPasswordToken exists because the spec lists it; it is a secret and
// always resolves to null.
@ObjectType({ simpleResolvers: true, description: 'A user, full form (spec 2.3).' })
export class User {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => String) externalId!: string;
  @Field(() => String) loginProviderId!: string;
  @Field(() => LoginProviderName, { nullable: true }) loginProviderName?: string | null;
  @Field(() => String) preferredLanguage!: string;
  @Field(() => String, { nullable: true }) timezone?: string | null;
  @Field(() => String, { nullable: true }) profilePictureUrl?: string | null;
  @Field(() => String, { nullable: true }) portraitPictureUrl?: string | null;
  @Field(() => Boolean) requiresAccountRecovery!: boolean;
  @Field(() => Role) role!: string;
  @Field(() => Boolean) showInitialTour!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) deletedAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) lastActiveDate?: Date | null;
  @Field(() => Int, { nullable: true }) loginCount?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel1Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel2Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel3Id?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'A user, compact form (spec 2.3), nested in predictions, invitations and tournaments.' })
export class UserCompact {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => String) externalId!: string;
  @Field(() => String) loginProviderId!: string;
  @Field(() => LoginProviderName, { nullable: true }) loginProviderName?: string | null;
  @Field(() => String) preferredLanguage!: string;
  @Field(() => String, { nullable: true }) profilePictureUrl?: string | null;
  @Field(() => String, { nullable: true }) portraitPictureUrl?: string | null;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => Role) role!: string;
  @Field(() => DateTime, { nullable: true }) deletedAt?: Date | null;
  @Field(() => Int, { nullable: true }) loginCount?: number | null;
}

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
