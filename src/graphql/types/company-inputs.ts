// What createCompany and updateCompany take (spec 2.4, 2.6). Each setting's description says who may change it,
// read from the one table of rules (src/domain/company-settings.ts). Sub-objects are given in part: what is left
// out keeps its value.
import { Field, InputType, Int } from 'type-graphql';
import { COMPANY_SETTINGS } from '../../domain/company-settings.ts';
import { NotificationType, PasswordPolicy, PurchasedPlan } from '../enums.ts';
import { JSONObject } from '../scalars.ts';
import { DISABLE_GOOGLE_LOGIN_DESCRIPTION, LOGIN_STRATEGY_DESCRIPTION } from './company.ts';

const WHO = {
  admin: "the company's admins, its reseller and managers",
  reseller: "the company's reseller and managers",
  manager: 'managers',
};
const who = (setting: string) => `Changed by ${WHO[COMPANY_SETTINGS[setting].authority]}.`;

@InputType({ description: 'featureSettings.areas in part: fields left out keep their value.' })
export class AreaSettingsInput {
  @Field(() => Int, { description: 'People an area needs (0 to 1000000) before its ranking is shown.', nullable: true })
  minUsersForAreaRanking?: number;
  @Field(() => Boolean, { description: 'Whether people pick their own areas when they register.', nullable: true })
  selfAssignOnSignUp?: boolean;
}

@InputType({ description: 'featureSettings.community in part: fields left out keep their value.' })
export class CommunitySettingsInput {
  @Field(() => Boolean, { description: 'Whether the community wall is open.', nullable: true }) enabled?: boolean;
  @Field(() => String, { nullable: true, description: 'textOnly or textAndImage.' }) postAllowedContent?: string;
  @Field(() => String, { nullable: true, description: 'player, admin, reseller or manager.' })
  postAuthorMinRole?: string;
}

@InputType({ description: 'featureSettings.rankings in part: fields left out keep their value.' })
export class RankingSettingsInput {
  @Field(() => Boolean, { description: 'Whether players see the general ranking.', nullable: true })
  showGeneralRanking?: boolean;
  @Field(() => Boolean, { description: 'Whether players see round rankings.', nullable: true })
  showRoundRankings?: boolean;
  @Field(() => Boolean, { description: 'Whether players see round rankings of areas.', nullable: true })
  showRoundRankingsForAreas?: boolean;
  @Field(() => String, { nullable: true, description: 'none, all or own.' }) visibleAreaRankings?: string;
}

@InputType({ description: 'featureSettings in part (spec 2.6): what is left out keeps its value.' })
export class FeatureSettingsInput {
  @Field(() => AreaSettingsInput, { description: 'Area settings to change.', nullable: true })
  areas?: AreaSettingsInput;
  @Field(() => CommunitySettingsInput, { description: 'Community settings to change.', nullable: true })
  community?: CommunitySettingsInput;
  @Field(() => RankingSettingsInput, { description: 'Ranking settings to change.', nullable: true })
  rankings?: RankingSettingsInput;
}

@InputType({ description: 'A banner in one slot.' })
export class BannerInput {
  @Field(() => String, { description: 'superior, middle or side; one banner per type.' }) type!: string;
  @Field(() => String, { description: 'Image shown on wide screens.', nullable: true }) desktopImageUrl?: string | null;
  @Field(() => String, { description: 'Image shown on phones.', nullable: true }) mobileImageUrl?: string | null;
  @Field(() => String, { description: 'Where a click on the banner goes.', nullable: true }) link?: string | null;
}

@InputType({ description: "The company's notification settings." })
export class CompanyNotificationSettingsInput {
  @Field(() => [NotificationType], {
    description: 'Notification types this company never sends; left out: unchanged.',
    nullable: true,
  })
  forbiddenTypes?: string[];
  @Field(() => Int, {
    description:
      'Hours before predictions close that pendingMatchesPredictions reminds its people, 1 to 168 (default 24): ' +
      "the default a person's own reminderHoursBefore overrides; left out: unchanged.",
    nullable: true,
  })
  reminderHoursBefore?: number;
}

@InputType({ description: 'Which games the company bought; fields left out keep their value.' })
export class PurchasedGamesInput {
  @Field(() => Boolean, { description: 'The prediction game.', nullable: true }) prode?: boolean;
  @Field(() => Boolean, { description: 'Trivia questions.', nullable: true }) trivia?: boolean;
}

@InputType({ description: "Google services of the company's site; fields left out keep " + 'their value.' })
export class GoogleServicesConfigInput {
  @Field(() => String, { description: 'Google AdSense client id; null removes it.', nullable: true }) adSenseClientId?:
    string | null;
  @Field(() => Boolean, { description: 'Whether search engines may index the site.', nullable: true })
  allowSearchEngineIndexing?: boolean;
  @Field(() => String, { description: 'Google Analytics tracking id; null removes it.', nullable: true })
  analyticsTrackingId?: string | null;
}

/** The settings both createCompany and updateCompany take. */
@InputType({ description: 'Company settings.' })
export class CompanySettingsInput {
  @Field(() => String, { nullable: true, description: who('appPath') }) appPath?: string | null;
  @Field(() => String, { nullable: true, description: who('appCustomDomain') }) appCustomDomain?: string | null;
  @Field(() => String, { nullable: true, description: who('logoUrl') }) logoUrl?: string | null;
  @Field(() => String, { nullable: true, description: who('isologoUrl') }) isologoUrl?: string | null;
  @Field(() => String, { nullable: true, description: who('loginImageUrl') }) loginImageUrl?: string | null;
  @Field(() => String, { nullable: true, description: who('loginLogoUrl') }) loginLogoUrl?: string | null;
  @Field(() => String, { nullable: true, description: who('loginText') }) loginText?: string | null;
  @Field(() => String, { nullable: true, description: who('customFontFamily') }) customFontFamily?: string | null;
  @Field(() => String, { nullable: true, description: who('comingSoonModeBackgroundImageUrl') })
  comingSoonModeBackgroundImageUrl?: string | null;
  @Field(() => String, { nullable: true, description: who('comingSoonModeTextColor') }) comingSoonModeTextColor?:
    string | null;
  @Field(() => String, { nullable: true, description: who('comingSoonText') }) comingSoonText?: string | null;
  @Field(() => String, { nullable: true, description: who('loginAnnouncementSeverity') }) loginAnnouncementSeverity?:
    string | null;
  @Field(() => String, { nullable: true, description: who('loginAnnouncementText') }) loginAnnouncementText?:
    string | null;
  @Field(() => String, { nullable: true, description: who('mainPageAnnouncementSeverity') })
  mainPageAnnouncementSeverity?: string | null;
  @Field(() => String, { nullable: true, description: who('mainPageAnnouncementText') }) mainPageAnnouncementText?:
    string | null;
  @Field(() => String, { nullable: true, description: who('supportEmail') }) supportEmail?: string | null;
  @Field(() => String, { nullable: true, description: who('initialConfigLastStep') }) initialConfigLastStep?:
    string | null;
  @Field(() => Int, { nullable: true, description: who('maxUsersAmount') }) maxUsersAmount?: number | null;
  @Field(() => Int, { nullable: true, description: `${who('loginStrategy')} ${LOGIN_STRATEGY_DESCRIPTION}` })
  loginStrategy?: number | null;
  @Field(() => Boolean, { nullable: true, description: who('disableAreaRankingsMainPageSummary') })
  disableAreaRankingsMainPageSummary?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableAreas') }) disableAreas?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableExtraPredictions') }) disableExtraPredictions?:
    boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: `${who('disableGoogleLogin')} ${DISABLE_GOOGLE_LOGIN_DESCRIPTION}`,
  })
  disableGoogleLogin?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableInitialTour') }) disableInitialTour?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableInternalRankings') }) disableInternalRankings?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableNews') }) disableNews?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableNewsFromHome') }) disableNewsFromHome?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableRankingsMainPageCards') })
  disableRankingsMainPageCards?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableRankingsMainPageSummary') })
  disableRankingsMainPageSummary?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableRankingsTable') }) disableRankingsTable?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableRankingsUserNames') }) disableRankingsUserNames?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableRegister') }) disableRegister?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableTournamentDetails') }) disableTournamentDetails?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('disableTrivias') }) disableTrivias?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('allowUserDeleteAccount') }) allowUserDeleteAccount?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('allowUserEmailEdit') }) allowUserEmailEdit?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('allowUserNameEdit') }) allowUserNameEdit?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('comingSoonModeIsEnabled') }) comingSoonModeIsEnabled?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('loginAnnouncementIsEnabled') })
  loginAnnouncementIsEnabled?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('mainPageAnnouncementIsEnabled') })
  mainPageAnnouncementIsEnabled?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('requiresEmailVerification') }) requiresEmailVerification?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('allowExceedMaxUsers') }) allowExceedMaxUsers?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('allowMobileApp') }) allowMobileApp?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: who('isReseller') }) isReseller?: boolean | null;
  @Field(() => PasswordPolicy, { nullable: true, description: who('passwordPolicy') }) passwordPolicy?: string | null;
  @Field(() => PurchasedPlan, { nullable: true, description: who('purchasedPlan') }) purchasedPlan?: string | null;
  @Field(() => [String], { nullable: true, description: who('supportedLanguages') }) supportedLanguages?:
    string[] | null;
  @Field(() => [String], { nullable: true, description: who('rssFeeds') }) rssFeeds?: string[] | null;
  @Field(() => [String], { nullable: true, description: who('combinedRoundsRankingDefinitions') })
  combinedRoundsRankingDefinitions?: string[] | null;
  @Field(() => JSONObject, { nullable: true, description: who('customColors') }) customColors?: object | null;
  @Field(() => JSONObject, { nullable: true, description: who('theme') }) theme?: object | null;
  @Field(() => [BannerInput], { nullable: true, description: who('banners') }) banners?: BannerInput[] | null;
  @Field(() => FeatureSettingsInput, { nullable: true, description: who('featureSettings') })
  featureSettings?: FeatureSettingsInput | null;
  @Field(() => CompanyNotificationSettingsInput, { nullable: true, description: who('notificationSettings') })
  notificationSettings?: CompanyNotificationSettingsInput | null;
  @Field(() => PurchasedGamesInput, { nullable: true, description: who('purchasedGames') })
  purchasedGames?: PurchasedGamesInput | null;
  @Field(() => GoogleServicesConfigInput, { nullable: true, description: who('googleServicesConfig') })
  googleServicesConfig?: GoogleServicesConfigInput | null;
}

@InputType({ description: 'A new company: its name and code, and any settings (the rest take their defaults).' })
export class CreateCompanyInput extends CompanySettingsInput {
  @Field(() => String, { description: who('name') }) name!: string;
  @Field(() => String, { description: `Unique; 2 to 40 letters, digits, - or _. ${who('code')}` }) code!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'The reseller company managing it: for a reseller, always its own company; managers choose any.',
  })
  resellerCompanyId?: number | null;
}

@InputType({ description: "A company's dream finals for one tournament it plays." })
export class DreamFinalsSettingInput {
  @Field(() => Int, { description: 'A tournament the company plays.' }) tournamentId!: number;
  @Field(() => Int, { description: 'Positions picked, 1 (the champion) to 8.' }) awardedPositions!: number;
  @Field(() => Int, { description: 'Points of a right pick, 0 to 1000.' }) awardedPoints!: number;
  @Field(() => Int, { description: 'A round of the tournament: picks close when it starts.' }) limitRoundId!: number;
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) isEnabled?: boolean | null;
}

@InputType({ description: 'Settings to change; what is left out keeps its value.' })
export class UpdateCompanyInput extends CompanySettingsInput {
  @Field(() => [DreamFinalsSettingInput], {
    nullable: true,
    description:
      "The dream finals of the tournaments listed (others keep theirs). Changed by the company's admins, its " +
      'reseller and managers; once people have picked, only isEnabled changes.',
  })
  dreamFinalsSettings?: DreamFinalsSettingInput[] | null;
  @Field(() => String, { nullable: true, description: who('name') }) name?: string | null;
  @Field(() => String, { nullable: true, description: `Unique. ${who('code')}` }) code?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the company to another reseller (null: none). Managers only.',
  })
  resellerCompanyId?: number | null;
}
