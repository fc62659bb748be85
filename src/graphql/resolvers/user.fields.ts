import { mayIdentifyPlayer } from '../../app/rankings.ts';
import { mayListManagedCompanies } from '../../domain/roles.ts';
import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import { userExtraFields, userNotificationSettings } from '../../domain/defaults.ts';
import type { Context } from '../context.ts';
import type { UserRow } from '../../loaders/registry.ts';
import { JSONObject } from '../scalars.ts';
import { Area } from '../types/area.ts';
import { Post } from '../types/community.ts';
import { Company, CompanyCompact } from '../types/company.ts';
import { Prediction } from '../types/football.ts';
import { UserExtraFieldValue, UserNotificationSettings } from '../types/settings.ts';
import {
  FirebaseToken,
  InternalRankingMembership,
  TriviaAnswer,
  TriviaSolution,
  User,
  UserCompact,
} from '../types/user.ts';

const NOTIFICATION_TYPE_COUNT = 7;
const area = (ctx: Context, id: number | null) => (id == null ? null : ctx.scope.loaders.area.load(id));
/** Push tokens, league memberships and trivia activity are the user's own business. */
const own = (u: UserRow, ctx: Context) => ctx.scope.caller?.id === u.id;

/**
 * The fields both forms of a user resolve alike, for `form`, whose company is shown as `companyForm`. A factory:
 * TypeGraphQL moves a base class's field resolvers to the class extending it, so each form extends its own copy.
 */
function sharedUserFields(form: ClassType, companyForm: ClassType) {
  @Resolver(() => form)
  abstract class SharedUserFields {
    @FieldResolver(() => companyForm, { description: 'The company the user belongs to.' }) company(
      @Root() u: UserRow,
      @Ctx() ctx: Context,
    ) {
      return ctx.scope.loaders.company.load(u.companyId);
    }
    @FieldResolver(() => Area, {
      description: 'The level-1 area the user is placed in; null when none.',
      nullable: true,
    })
    areaLevel1(@Root() u: UserRow, @Ctx() ctx: Context) {
      return area(ctx, u.areaLevel1Id);
    }
    @FieldResolver(() => Area, { description: 'The level-2 area; null when none.', nullable: true }) areaLevel2(
      @Root() u: UserRow,
      @Ctx() ctx: Context,
    ) {
      return area(ctx, u.areaLevel2Id);
    }
    @FieldResolver(() => Area, { description: 'The level-3 area; null when none.', nullable: true }) areaLevel3(
      @Root() u: UserRow,
      @Ctx() ctx: Context,
    ) {
      return area(ctx, u.areaLevel3Id);
    }
    @FieldResolver(() => String, { nullable: true, description: 'A secret: always null.' }) recoverPasswordToken() {
      return null;
    }
    @FieldResolver(() => [Prediction], {
      description:
        "All of the caller's own; another user's only for matches that have kicked off, and none ([]) to a player " +
        'where the company sets disableRankingsUserNames (a named user beside their points is what it hides).',
    })
    predictions(@Root() u: UserRow, @Ctx() ctx: Context) {
      if (!mayIdentifyPlayer(ctx.scope, u.id)) return [];
      return ctx.scope.loaders.visiblePredictionsByUser.load(u.id);
    }
  }
  return SharedUserFields;
}

@Resolver(() => User)
export class UserFields extends sharedUserFields(User, Company) {
  @FieldResolver(() => [UserExtraFieldValue], { description: "Their values of the company's extra fields." })
  extraFields(@Root() u: UserRow) {
    return userExtraFields(u.extraFields);
  }
  @FieldResolver(() => UserNotificationSettings, { description: 'Their notification choices.' }) notificationSettings(
    @Root() u: UserRow,
  ) {
    return userNotificationSettings(u.notificationSettings);
  }
  @FieldResolver(() => [FirebaseToken], {
    description: "Push tokens of their devices: the caller's own only, [] for " + 'anyone else.',
  })
  firebaseTokens(@Root() u: UserRow, @Ctx() ctx: Context) {
    return own(u, ctx) ? ctx.scope.loaders.firebaseTokensByUser.load(u.id) : [];
  }
  @FieldResolver(() => [InternalRankingMembership], {
    description: "Private leagues they belong to: the caller's own only, [] for " + 'anyone else.',
  })
  internalRankingMemberships(@Root() u: UserRow, @Ctx() ctx: Context) {
    return own(u, ctx) ? ctx.scope.loaders.internalRankingMembershipsByUser.load(u.id) : [];
  }
  @FieldResolver(() => [Post], { description: 'Their posts on the wall; [] when none.' }) posts(
    @Root() u: UserRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.postsByUser.load(u.id);
  }
  @FieldResolver(() => [TriviaAnswer], {
    description: "Their trivia answers: the caller's own only, [] for anyone else.",
  })
  triviaAnswers(@Root() u: UserRow, @Ctx() ctx: Context) {
    return own(u, ctx) ? ctx.scope.loaders.triviaAnswersByUser.load(u.id) : [];
  }
  @FieldResolver(() => [TriviaSolution], {
    description:
      "The user's graded trivia answers, of the questions whose window has ended (until then nobody learns " +
      'whether an answer was right). Only to the user themselves: [] for anyone else.',
  })
  triviaSolutions(@Root() u: UserRow, @Ctx() ctx: Context) {
    return own(u, ctx) ? ctx.scope.loaders.triviaSolutionsByUser.load(u.id) : [];
  }
}

@Resolver(() => UserCompact)
export class UserCompactFields extends sharedUserFields(UserCompact, CompanyCompact) {
  @FieldResolver(() => JSONObject, { description: 'Extra-field values keyed by field name.' })
  extraFields(@Root() u: UserRow) {
    return Object.fromEntries(userExtraFields(u.extraFields).map((f) => [f.name, f.value]));
  }
  @FieldResolver(() => Boolean, { description: 'False when the user has disabled every notification type.' })
  notificationsEnabled(@Root() u: UserRow) {
    return userNotificationSettings(u.notificationSettings).disabledTypes.length < NOTIFICATION_TYPE_COUNT;
  }
  @FieldResolver(() => [CompanyCompact], {
    nullable: true,
    description: 'For resellers: the companies their company manages.',
  })
  async managedCompanies(@Root() u: UserRow, @Ctx() ctx: Context) {
    if (u.role !== 'reseller' || !mayListManagedCompanies(ctx.scope.caller, u.companyId)) return null;
    return ctx.scope.loaders.managedCompanies.load(u.companyId);
  }
}
