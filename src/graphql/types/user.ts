import { Field, Int, ObjectType } from 'type-graphql';
import { LoginProviderName, Role } from '../enums.ts';
import { DateTime } from '../scalars.ts';

/** What both forms of a user show alike (spec 2.3); not a type of the schema by itself. */
@ObjectType({ simpleResolvers: true })
export abstract class UserShape {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Their name.' }) name!: string;
  @Field(() => String, { description: 'Their e-mail (login name in the company).' }) email!: string;
  @Field(() => Boolean, { description: 'They confirmed their e-mail.' }) emailVerified!: boolean;
  @Field(() => String, { description: 'Id in an external system.' }) externalId!: string;
  @Field(() => String, {
    description: 'Their id at the login provider; for e-mail and password accounts, the e-mail.',
  })
  loginProviderId!: string;
  @Field(() => LoginProviderName, {
    description: 'The single sign-on provider; null for e-mail and password.',
    nullable: true,
  })
  loginProviderName?: string | null;
  @Field(() => String, { description: 'Language code, e.g. es or pt-BR.' }) preferredLanguage!: string;
  @Field(() => String, { description: 'Profile picture URL; null when none.', nullable: true }) profilePictureUrl?:
    string | null;
  @Field(() => String, { description: 'Portrait picture URL; null when none.', nullable: true }) portraitPictureUrl?:
    string | null;
  @Field(() => Role, { description: 'Their role.' }) role!: string;
  @Field(() => DateTime, { description: 'When they were deactivated (UTC); null while active.', nullable: true })
  deletedAt?: Date | null;
  @Field(() => Int, { description: 'How many times they logged in.', nullable: true }) loginCount?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'A user, full form (spec 2.3).' })
export class User extends UserShape {
  @Field(() => String, {
    description: 'IANA time zone, e.g. America/Argentina/Buenos_Aires; null: none chosen (times are UTC anyway).',
    nullable: true,
  })
  timezone?: string | null;
  @Field(() => Boolean, {
    description:
      'The account is flagged to set a new password (clients prompt for it); resetting the password clears it.',
  })
  requiresAccountRecovery!: boolean;
  @Field(() => Boolean, { description: 'The guided tour is shown.' }) showInitialTour!: boolean;
  @Field(() => DateTime, { description: 'When the account was created (UTC).' }) createdAt!: Date;
  @Field(() => DateTime, { description: 'When they were last seen (UTC); null when never.', nullable: true })
  lastActiveDate?: Date | null;
  @Field(() => Int, { description: 'Their level-1 area; null when none.', nullable: true }) areaLevel1Id?:
    number | null;
  @Field(() => Int, { description: 'Their level-2 area; null when none.', nullable: true }) areaLevel2Id?:
    number | null;
  @Field(() => Int, { description: 'Their level-3 area; null when none.', nullable: true }) areaLevel3Id?:
    number | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'A user, compact form (spec 2.3), nested in predictions, invitations and tournaments.',
})
export class UserCompact extends UserShape {}

@ObjectType({ description: "A device's push token.", simpleResolvers: true })
export class FirebaseToken {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, {
    description: 'The device platform the client registered; null when not given.',
    nullable: true,
  })
  platform?: string | null;
  @Field(() => DateTime, { description: 'When it was registered (UTC).' }) createdAt!: Date;
}

@ObjectType({ description: 'Membership of a private league.', simpleResolvers: true })
export class InternalRankingMembership {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => Int, { description: 'The league.' }) rankingId!: number;
  @Field(() => DateTime, { description: 'When they joined (UTC).' }) joinedAt!: Date;
}

@ObjectType({ description: 'An answer to a trivia question.', simpleResolvers: true })
export class TriviaAnswer {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => Int, { description: 'The question.' }) questionId!: number;
  @Field(() => Int, { description: 'The index of the option chosen (0 first).' }) option!: number;
  @Field(() => DateTime, { description: 'When it was given (UTC).' }) createdAt!: Date;
}

@ObjectType({ description: "A graded trivia answer, once the question's window has ended.", simpleResolvers: true })
export class TriviaSolution {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => Int, { description: 'The question.' }) questionId!: number;
  @Field(() => Boolean, { description: 'The answer was right.' }) isCorrect!: boolean;
  @Field(() => Int, { description: 'Points earned (0 when wrong).' }) points!: number;
}
