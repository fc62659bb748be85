// Company in its two spec forms (2.4): the full form (nested in posts, comments, the invitation-by-JWT
// lookup) and the compact form (nested in users, invitations, tournaments, search results).
// Relation fields are resolved in resolvers/company.fields.ts; scalars come straight from the row.
import { Field, Int, ObjectType } from 'type-graphql';
import { PasswordPolicy, PurchasedPlan } from '../enums.ts';
import { DateTime, JSONObject } from '../scalars.ts';

/** What both forms of a company show alike (spec 2.4); not a type of the schema by itself. */
@ObjectType({ simpleResolvers: true })
export abstract class CompanyShape {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
  @Field(() => String, { nullable: true }) loginImageUrl?: string | null;
  @Field(() => String, { nullable: true }) loginAnnouncementSeverity?: string | null;
  @Field(() => String, { nullable: true }) isologoUrl?: string | null;
  @Field(() => String, { nullable: true }) appCustomDomain?: string | null;
  @Field(() => String, { nullable: true }) appPath?: string | null;
  @Field(() => Boolean) requiresEmailVerification!: boolean;
  @Field(() => Boolean) isReseller!: boolean;
  @Field(() => Boolean) allowUserEmailEdit!: boolean;
  @Field(() => Boolean) allowUserNameEdit!: boolean;
  @Field(() => Boolean) disableNews!: boolean;
  @Field(() => Boolean) disableNewsFromHome!: boolean;
  @Field(() => Boolean) disableRegister!: boolean;
  @Field(() => Boolean) disableGoogleLogin!: boolean;
  @Field(() => String, { nullable: true }) customFontFamily?: string | null;
  @Field(() => Int) maxUsersAmount!: number;
  @Field(() => JSONObject) theme!: object;
  @Field(() => DateTime, { nullable: true }) deletedAt?: Date | null;
  @Field(() => Int, { description: '0: e-mail and password; 1: single sign-on.' }) loginStrategy!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A tenant, full form (spec 2.4).' })
export class Company extends CompanyShape {
  @Field(() => String) code!: string;
  @Field(() => Boolean) allowExceedMaxUsers!: boolean;
  @Field(() => Boolean) allowMobileApp!: boolean;
  @Field(() => Boolean) allowUserDeleteAccount!: boolean;
  @Field(() => Boolean) comingSoonModeIsEnabled!: boolean;
  @Field(() => String, { nullable: true }) comingSoonModeBackgroundImageUrl?: string | null;
  @Field(() => String, { nullable: true }) comingSoonModeTextColor?: string | null;
  @Field(() => Boolean) disableAreaRankingsMainPageSummary!: boolean;
  @Field(() => Boolean) disableAreas!: boolean;
  @Field(() => Boolean) disableExtraPredictions!: boolean;
  @Field(() => Boolean) disableInitialTour!: boolean;
  @Field(() => Boolean) disableInternalRankings!: boolean;
  @Field(() => Boolean) disableRankingsMainPageCards!: boolean;
  @Field(() => Boolean) disableRankingsMainPageSummary!: boolean;
  @Field(() => Boolean) disableRankingsTable!: boolean;
  @Field(() => Boolean, {
    description:
      'Rankings do not show players who is ranked: for a player, every ranking entry but their own answers user: ' +
      "null (admins, the company's reseller and managers still see the users).",
  })
  disableRankingsUserNames!: boolean;
  @Field(() => Boolean) disableTournamentDetails!: boolean;
  @Field(() => Boolean) disableTrivias!: boolean;
  @Field(() => String) initialConfigLastStep!: string;
  @Field(() => String, { nullable: true }) loginLogoUrl?: string | null;
  @Field(() => Boolean) loginAnnouncementIsEnabled!: boolean;
  @Field(() => Boolean) mainPageAnnouncementIsEnabled!: boolean;
  @Field(() => String, { nullable: true }) mainPageAnnouncementSeverity?: string | null;
  @Field(() => PasswordPolicy) passwordPolicy!: string;
  @Field(() => PurchasedPlan) purchasedPlan!: string;
  @Field(() => String, { nullable: true }) supportEmail?: string | null;
  @Field(() => JSONObject) customColors!: object;
}

@ObjectType({ simpleResolvers: true, description: 'A tenant, compact form (spec 2.4).' })
export class CompanyCompact extends CompanyShape {
  @Field(() => String, { nullable: true }) loginText?: string | null;
  @Field(() => String, { nullable: true }) loginAnnouncementText?: string | null;
  @Field(() => Boolean, { nullable: true }) comingSoonModeIsEnabled?: boolean | null;
  @Field(() => String, { nullable: true }) comingSoonText?: string | null;
}
