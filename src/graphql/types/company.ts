// Company in its two spec forms (2.4): the full form (nested in posts, comments, the invitation-by-JWT
// lookup) and the compact form (nested in users, invitations, tournaments, search results).
// Relation fields are resolved in resolvers/company.fields.ts; scalars come straight from the row.
import { Field, Int, ObjectType } from 'type-graphql';
import { PasswordPolicy, PurchasedPlan } from '../enums.ts';
import { DateTime, JSONObject } from '../scalars.ts';

/** loginStrategy's two values, for the type and the inputs that set it (src/app/login-strategy.ts). */
export const LOGIN_STRATEGY_DESCRIPTION =
  'How its people sign in. 0: with a password or a provider (Google unless disableGoogleLogin, and the ' +
  "company's own identity provider where one is set up). 1: with the company's own identity provider only: " +
  'login, register, acceptInvitation, resetPassword, changePassword, and requestPasswordReset naming the company ' +
  'by x-app-path or x-app-host, answer FORBIDDEN for its people (managers of the platform excepted), and its ' +
  'e-mails carry no password links. No other value is accepted.';
export const DISABLE_GOOGLE_LOGIN_DESCRIPTION =
  "Google sign-in is not offered to the company's people. Under loginStrategy 1 it never is: only the company's " +
  'own identity provider signs them in.';

/** What both forms of a company show alike (spec 2.4); not a type of the schema by itself. */
@ObjectType({ simpleResolvers: true })
export abstract class CompanyShape {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: "The company's display name." }) name!: string;
  @Field(() => String, { description: 'Logo image URL; null when none.', nullable: true }) logoUrl?: string | null;
  @Field(() => String, { description: 'Image on the login page; null when none.', nullable: true }) loginImageUrl?:
    string | null;
  @Field(() => String, {
    description: 'How the login announcement is styled: info, success, warning or error; null when unset.',
    nullable: true,
  })
  loginAnnouncementSeverity?: string | null;
  @Field(() => String, { description: 'Isologo (symbol) image URL; null when none.', nullable: true }) isologoUrl?:
    string | null;
  @Field(() => String, {
    description: 'Its own host name (e.g. prode.example.com), matched by x-app-host; null when none.',
    nullable: true,
  })
  appCustomDomain?: string | null;
  @Field(() => String, {
    description: 'Its path on the shared site, matched by x-app-path; null when none.',
    nullable: true,
  })
  appPath?: string | null;
  @Field(() => Boolean, { description: 'New accounts must confirm their e-mail before login.' })
  requiresEmailVerification!: boolean;
  @Field(() => Boolean, { description: 'It manages other companies.' }) isReseller!: boolean;
  @Field(() => Boolean, { description: 'People may change their own e-mail (updateMe).' }) allowUserEmailEdit!: boolean;
  @Field(() => Boolean, { description: 'People may change their own name (updateMe).' }) allowUserNameEdit!: boolean;
  @Field(() => Boolean, { description: 'News is off.' }) disableNews!: boolean;
  @Field(() => Boolean, { description: 'News is not shown on the home page.' }) disableNewsFromHome!: boolean;
  @Field(() => Boolean, {
    description: 'Nobody signs up by themselves (register is FORBIDDEN); people join by invitation.',
  })
  disableRegister!: boolean;
  @Field(() => Boolean, { description: DISABLE_GOOGLE_LOGIN_DESCRIPTION }) disableGoogleLogin!: boolean;
  @Field(() => String, { description: 'CSS font family of the site; null: the default.', nullable: true })
  customFontFamily?: string | null;
  @Field(() => Int, { description: 'Most active people the company may have.' }) maxUsersAmount!: number;
  @Field(() => JSONObject, { description: 'Free-form theme settings for the client.' }) theme!: object;
  @Field(() => DateTime, { description: 'When the company was closed (UTC); null while open.', nullable: true })
  deletedAt?: Date | null;
  @Field(() => Int, { description: LOGIN_STRATEGY_DESCRIPTION }) loginStrategy!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A tenant, full form (spec 2.4).' })
export class Company extends CompanyShape {
  @Field(() => String, { description: 'Unique short code, matched by x-app-company.' }) code!: string;
  @Field(() => Boolean, { description: 'New people may join past maxUsersAmount.' }) allowExceedMaxUsers!: boolean;
  @Field(() => Boolean, { description: 'The mobile app may be used.' }) allowMobileApp!: boolean;
  @Field(() => Boolean, { description: 'People may delete their own account (deleteMyAccount).' })
  allowUserDeleteAccount!: boolean;
  @Field(() => Boolean, { description: 'The site shows a "coming soon" page instead of the game.' })
  comingSoonModeIsEnabled!: boolean;
  @Field(() => String, { description: 'Background of the "coming soon" page; null when none.', nullable: true })
  comingSoonModeBackgroundImageUrl?: string | null;
  @Field(() => String, { description: 'Text color of the "coming soon" page; null: the default.', nullable: true })
  comingSoonModeTextColor?: string | null;
  @Field(() => Boolean, { description: 'The home page shows no area ranking summary.' })
  disableAreaRankingsMainPageSummary!: boolean;
  @Field(() => Boolean, { description: 'Areas are off.' }) disableAreas!: boolean;
  @Field(() => Boolean, { description: 'Bonus questions are off (no new ones are asked).' })
  disableExtraPredictions!: boolean;
  @Field(() => Boolean, { description: 'New people get no guided tour.' }) disableInitialTour!: boolean;
  @Field(() => Boolean, { description: 'Private leagues (internal rankings) are off.' })
  disableInternalRankings!: boolean;
  @Field(() => Boolean, { description: 'The home page shows no ranking cards.' })
  disableRankingsMainPageCards!: boolean;
  @Field(() => Boolean, { description: 'The home page shows no ranking summary.' })
  disableRankingsMainPageSummary!: boolean;
  @Field(() => Boolean, { description: 'The ranking table is hidden.' }) disableRankingsTable!: boolean;
  @Field(() => Boolean, {
    description:
      'Rankings do not show players who is ranked: for a player, every ranking entry but their own has user: ' +
      "null (admins, the company's reseller and managers still see the users).",
  })
  disableRankingsUserNames!: boolean;
  @Field(() => Boolean, { description: 'Tournament detail pages are hidden.' }) disableTournamentDetails!: boolean;
  @Field(() => Boolean, { description: 'Trivia is off for players (FORBIDDEN to them).' }) disableTrivias!: boolean;
  @Field(() => String, { description: 'The last step of the set-up wizard an admin completed.' })
  initialConfigLastStep!: string;
  @Field(() => String, { description: 'Logo on the login page; null when none.', nullable: true }) loginLogoUrl?:
    string | null;
  @Field(() => Boolean, { description: 'The login page shows an announcement.' }) loginAnnouncementIsEnabled!: boolean;
  @Field(() => Boolean, { description: 'The home page shows an announcement.' })
  mainPageAnnouncementIsEnabled!: boolean;
  @Field(() => String, {
    description: 'How the home page announcement is styled: info, success, warning or error; null when unset.',
    nullable: true,
  })
  mainPageAnnouncementSeverity?: string | null;
  @Field(() => PasswordPolicy, { description: 'What new passwords must meet.' }) passwordPolicy!: string;
  @Field(() => PurchasedPlan, { description: 'The plan the company bought.' }) purchasedPlan!: string;
  @Field(() => String, { description: 'Where people write for help; null when none.', nullable: true }) supportEmail?:
    string | null;
  @Field(() => JSONObject, { description: 'Free-form colors of the site, e.g. { primary, secondary }.' })
  customColors!: object;
}

@ObjectType({ simpleResolvers: true, description: 'A tenant, compact form (spec 2.4).' })
export class CompanyCompact extends CompanyShape {
  @Field(() => String, { description: 'Text of the login page; null when none.', nullable: true }) loginText?:
    string | null;
  @Field(() => String, { description: 'The login announcement; null when none.', nullable: true })
  loginAnnouncementText?: string | null;
  @Field(() => Boolean, { description: 'The site shows a "coming soon" page instead of the game.', nullable: true })
  comingSoonModeIsEnabled?: boolean | null;
  @Field(() => String, { description: 'Text of the "coming soon" page; null when none.', nullable: true })
  comingSoonText?: string | null;
}
