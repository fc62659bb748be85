// Objects stored as JSON on Company and User, given a fixed shape here (spec 2.3, 2.4, 2.6).
import { Field, Int, ObjectType } from 'type-graphql';
import { BannerType, NotificationType, PostAllowedContent, Role, VisibleAreaRankings } from '../enums.ts';
import { JSON as JSONScalar } from '../scalars.ts';

@ObjectType({ simpleResolvers: true })
export class AreasFeatureSettings {
  @Field(() => Int) minUsersForAreaRanking!: number;
  @Field(() => Boolean) selfAssignOnSignUp!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class CommunityFeatureSettings {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => PostAllowedContent) postAllowedContent!: string;
  @Field(() => Role) postAuthorMinRole!: string;
}

@ObjectType({ simpleResolvers: true })
export class RankingsFeatureSettings {
  @Field(() => Boolean) showGeneralRanking!: boolean;
  @Field(() => Boolean) showRoundRankings!: boolean;
  @Field(() => Boolean) showRoundRankingsForAreas!: boolean;
  @Field(() => VisibleAreaRankings) visibleAreaRankings!: string;
}

@ObjectType({ simpleResolvers: true })
export class FeatureSettings {
  @Field(() => AreasFeatureSettings) areas!: AreasFeatureSettings;
  @Field(() => CommunityFeatureSettings) community!: CommunityFeatureSettings;
  @Field(() => RankingsFeatureSettings) rankings!: RankingsFeatureSettings;
}

@ObjectType({ simpleResolvers: true })
export class CompanyNotificationSettings {
  @Field(() => [NotificationType]) forbiddenTypes!: string[];
}

@ObjectType({ simpleResolvers: true })
export class UserNotificationSettings {
  @Field(() => [NotificationType]) disabledTypes!: string[];
  @Field(() => Boolean) emailEnabled!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class GoogleServicesConfig {
  @Field(() => String, { nullable: true }) adSenseClientId?: string | null;
  @Field(() => Boolean) allowSearchEngineIndexing!: boolean;
  @Field(() => String, { nullable: true }) analyticsTrackingId?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class PurchasedGames {
  @Field(() => Boolean) prode!: boolean;
  @Field(() => Boolean) trivia!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class Banner {
  @Field(() => BannerType) type!: string;
  @Field(() => String, { nullable: true }) desktopImageUrl?: string | null;
  @Field(() => String, { nullable: true }) mobileImageUrl?: string | null;
  @Field(() => String, { nullable: true }) link?: string | null;
}

/** A banner in the compact company form, one field per slot (superiorBanner, middleBanner, sideBanner). */
@ObjectType({ simpleResolvers: true })
export class BannerSlot {
  @Field(() => String, { nullable: true }) desktopImageUrl?: string | null;
  @Field(() => String, { nullable: true }) mobileImageUrl?: string | null;
  @Field(() => String, { nullable: true }) link?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class UserExtraFieldValue {
  @Field(() => String) name!: string;
  @Field(() => JSONScalar) value!: unknown;
}
