// Objects stored as JSON on Company and User, given a fixed shape here (spec 2.3, 2.4, 2.6).
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { BannerType, NotificationType, PostAllowedContent, Role, VisibleAreaRankings } from '../enums.ts';
import { JSON as JSONScalar } from '../scalars.ts';

@ObjectType({ description: 'How areas work in the company.', simpleResolvers: true })
export class AreasFeatureSettings {
  @Field(() => Int, { description: 'People an area needs before its ranking is shown (default 3).' })
  minUsersForAreaRanking!: number;
  @Field(() => Boolean, { description: 'People pick their own areas when they register.' })
  selfAssignOnSignUp!: boolean;
}

@ObjectType({ description: 'How the community wall works.', simpleResolvers: true })
export class CommunityFeatureSettings {
  @Field(() => Boolean, { description: 'The wall is open.' }) enabled!: boolean;
  @Field(() => PostAllowedContent, { description: 'Whether posts may carry an image.' }) postAllowedContent!: string;
  @Field(() => Role, { description: 'The lowest role that may post and comment.' }) postAuthorMinRole!: string;
}

@ObjectType({ description: 'Which rankings players see (admins and above see all).', simpleResolvers: true })
export class RankingsFeatureSettings {
  @Field(() => Boolean, { description: 'Players see the general ranking.' }) showGeneralRanking!: boolean;
  @Field(() => Boolean, { description: 'Players see round rankings.' }) showRoundRankings!: boolean;
  @Field(() => Boolean, { description: 'Players see round rankings of areas.' }) showRoundRankingsForAreas!: boolean;
  @Field(() => VisibleAreaRankings, { description: 'Which area rankings players see.' }) visibleAreaRankings!: string;
}

@ObjectType({ description: 'What the company turns on for areas, the community and rankings.', simpleResolvers: true })
export class FeatureSettings {
  @Field(() => AreasFeatureSettings, { description: 'Areas.' }) areas!: AreasFeatureSettings;
  @Field(() => CommunityFeatureSettings, { description: 'The community wall.' }) community!: CommunityFeatureSettings;
  @Field(() => RankingsFeatureSettings, { description: 'Rankings.' }) rankings!: RankingsFeatureSettings;
}

@ObjectType({ description: 'Notifications the company turns off.', simpleResolvers: true })
export class CompanyNotificationSettings {
  @Field(() => [NotificationType], { description: 'Types never sent to its people; [] when none.' })
  forbiddenTypes!: string[];
  @Field(() => Int, {
    description:
      'Hours before predictions close that pendingMatchesPredictions reminds its people (1 to 168, default 24); ' +
      "a person's own reminderHoursBefore overrides it.",
  })
  reminderHoursBefore!: number;
}

@ObjectType({ description: "A person's notification choices.", simpleResolvers: true })
export class UserNotificationSettings {
  @Field(() => [NotificationType], { description: 'Types they do not want; [] when none.' }) disabledTypes!: string[];
  @Field(() => Boolean, { description: 'Notifications also go by e-mail.' }) emailEnabled!: boolean;
  @Field(() => Int, {
    description:
      "Hours before predictions close that they are reminded (1 to 168); null: the company's reminderHoursBefore.",
    nullable: true,
  })
  reminderHoursBefore?: number | null;
}

@InputType({ description: "The caller's notification choices; a field left out keeps its value." })
export class NotificationSettingsInput {
  @Field(() => [NotificationType], { description: 'Types they do not want; [] turns every type on.', nullable: true })
  disabledTypes?: string[] | null;
  @Field(() => Boolean, { description: 'Notifications also go by e-mail.', nullable: true })
  emailEnabled?: boolean | null;
  @Field(() => Int, {
    description:
      "Hours before predictions close to be reminded, 1 to 168; null: follow the company's reminderHoursBefore.",
    nullable: true,
  })
  reminderHoursBefore?: number | null;
}

@ObjectType({ description: "Google services of the company's site.", simpleResolvers: true })
export class GoogleServicesConfig {
  @Field(() => String, { description: 'Google AdSense client id; null when none.', nullable: true }) adSenseClientId?:
    string | null;
  @Field(() => Boolean, { description: 'Search engines may index the site.' }) allowSearchEngineIndexing!: boolean;
  @Field(() => String, { description: 'Google Analytics tracking id; null when none.', nullable: true })
  analyticsTrackingId?: string | null;
}

@ObjectType({ description: 'Which games the company bought.', simpleResolvers: true })
export class PurchasedGames {
  @Field(() => Boolean, { description: 'The prediction game.' }) prode!: boolean;
  @Field(() => Boolean, { description: 'Trivia questions.' }) trivia!: boolean;
}

@ObjectType({ description: 'A banner in one slot of the page.', simpleResolvers: true })
export class Banner {
  @Field(() => BannerType, { description: 'The slot.' }) type!: string;
  @Field(() => String, { description: 'Image on wide screens; null when none.', nullable: true }) desktopImageUrl?:
    string | null;
  @Field(() => String, { description: 'Image on phones; null when none.', nullable: true }) mobileImageUrl?:
    string | null;
  @Field(() => String, { description: 'Where a click goes; null when nowhere.', nullable: true }) link?: string | null;
}

/** A banner in the compact company form, one field per slot (superiorBanner, middleBanner, sideBanner). */
@ObjectType({ description: 'The banner of one slot.', simpleResolvers: true })
export class BannerSlot {
  @Field(() => String, { description: 'Image on wide screens; null when none.', nullable: true }) desktopImageUrl?:
    string | null;
  @Field(() => String, { description: 'Image on phones; null when none.', nullable: true }) mobileImageUrl?:
    string | null;
  @Field(() => String, { description: 'Where a click goes; null when nowhere.', nullable: true }) link?: string | null;
}

@ObjectType({ description: "A person's value of an extra field.", simpleResolvers: true })
export class UserExtraFieldValue {
  @Field(() => String, { description: "The extra field's name." }) name!: string;
  @Field(() => JSONScalar, { description: "A value of the field's type." }) value!: unknown;
}
