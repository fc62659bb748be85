import 'reflect-metadata';
import {
  defaultFieldResolver,
  DirectiveLocation,
  getNullableType,
  GraphQLDirective,
  isListType,
  isObjectType,
  specifiedDirectives,
  type GraphQLSchema,
} from 'graphql';
import { buildSchemaSync, type ClassType } from 'type-graphql';
import { hasCutoff } from './cost.ts';
import { countResolvedObjects } from './count-objects.ts';
import { leanFieldResolvers } from '../engine/graphql/lean-field-resolvers.ts';
import './enums.ts';
import { AccountResolver } from './resolvers/account.resolver.ts';
import { AuditEntryFields, AuditResolver } from './resolvers/audit.resolver.ts';
import { CompanyTournamentsResolver } from './resolvers/company-tournaments.resolver.ts';
import { StructureResolver } from './resolvers/structure.resolver.ts';
import { PeopleResolver } from './resolvers/people.resolver.ts';
import { CompanyAdminResolver } from './resolvers/company-admin.resolver.ts';
import { SignUpResolver } from './resolvers/sign-up.resolver.ts';
import { AreaFields } from './resolvers/area.fields.ts';
import { AuthResolver } from './resolvers/auth.resolver.ts';
import { PostCommentFields, PostCommentLikeFields, PostFields, PostLikeFields } from './resolvers/community.fields.ts';
import { CompanyCompactFields, CompanyFields } from './resolvers/company.fields.ts';
import { CommunityResolver } from './resolvers/community.resolver.ts';
import { CompanyResolver } from './resolvers/company.resolver.ts';
import { GameResolver } from './resolvers/game.resolver.ts';
import { ScoringSettingsResolver } from './resolvers/scoring-settings.resolver.ts';
import { BonusQuestionResolver } from './resolvers/bonus-question.resolver.ts';
import {
  CountryFields,
  DreamFinalPickFields,
  DreamFinalsSettingFields,
  MatchFields,
  PredictionFields,
  RoundFields,
  TeamFields,
  TournamentFields,
} from './resolvers/football.fields.ts';
import { InvitationFields, PublicInvitationFields } from './resolvers/invitation.fields.ts';
import { InvitationResolver } from './resolvers/invitation.resolver.ts';
import {
  InternalRankingFields,
  InternalRankingInvitationFields,
  InternalRankingResolver,
} from './resolvers/internal-ranking.resolver.ts';
import { MatchListsResolver } from './resolvers/match-lists.resolver.ts';
import { NotificationResolver } from './resolvers/notification.resolver.ts';
import { RankingEntryFields, RankingResolver } from './resolvers/ranking.resolver.ts';
import {
  MatchStatisticsFields,
  MatchStatisticsScoreFields,
  RoundWinnersResolver,
} from './resolvers/statistics.resolver.ts';
import { AreaRankingEntryFields, SeasonResolver, SeasonTournamentFields } from './resolvers/season.resolver.ts';
import { SubscriptionsResolver } from './resolvers/subscriptions.resolver.ts';
import { SsoResolver } from './resolvers/sso.resolver.ts';
import { TournamentResolver } from './resolvers/tournament.resolver.ts';
import { TriviaQuestionFields, TriviaRankingEntryFields, TriviaResolver } from './resolvers/trivia.resolver.ts';
import { UserCompactFields, UserFields } from './resolvers/user.fields.ts';

export const resolvers: [ClassType, ...ClassType[]] = [
  InternalRankingResolver,
  InternalRankingFields,
  InternalRankingInvitationFields,
  NotificationResolver,
  SubscriptionsResolver,
  AuthResolver,
  AccountResolver,
  CompanyTournamentsResolver,
  StructureResolver,
  PeopleResolver,
  CompanyAdminResolver,
  SsoResolver,
  SignUpResolver,
  CommunityResolver,
  CompanyResolver,
  GameResolver,
  ScoringSettingsResolver,
  BonusQuestionResolver,
  InvitationResolver,
  RankingResolver,
  TournamentResolver,
  MatchListsResolver,
  RankingEntryFields,
  SeasonResolver,
  SeasonTournamentFields,
  AreaRankingEntryFields,
  TriviaResolver,
  TriviaQuestionFields,
  TriviaRankingEntryFields,
  AreaFields,
  CompanyFields,
  CompanyCompactFields,
  UserFields,
  UserCompactFields,
  InvitationFields,
  PublicInvitationFields,
  TournamentFields,
  CountryFields,
  TeamFields,
  RoundFields,
  MatchFields,
  PredictionFields,
  DreamFinalsSettingFields,
  DreamFinalPickFields,
  PostFields,
  PostCommentFields,
  PostLikeFields,
  PostCommentLikeFields,
  AuditResolver,
  AuditEntryFields,
  MatchStatisticsFields,
  MatchStatisticsScoreFields,
  RoundWinnersResolver,
] as const;

/**
 * `@cutoff` on a list field returns [] without resolving it. The REST operations use it where the spec cuts
 * the nesting off ("the field is an empty array"), so the shapes stay finite and cost nothing.
 */
export const CutoffDirective = new GraphQLDirective({
  name: 'cutoff',
  description: 'On a list field: return [] without resolving it. Used where a REST shape cuts the nesting off.',
  locations: [DirectiveLocation.FIELD],
});

/** Wraps list fields only: one array-length check per list, nothing on scalar fields. */
function applyCutoff(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isListType(getNullableType(field.type))) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      // Copies of a field in one selection are merged: a copy without @cutoff asks for the list, so it is cut off
      // only when every copy says so (src/graphql/cost.ts prices it the same way).
      field.resolve = (source, args, context, info) =>
        info.fieldNodes.every(hasCutoff) ? [] : resolve(source, args, context, info);
    }
  }
  return schema;
}

/** TypeGraphQL builds the root types without descriptions: they are given here. */
function describeRoots(schema: GraphQLSchema): GraphQLSchema {
  const roots = {
    Query:
      'Reads. Every field but invitationByJwt and signInMethods needs a Bearer token; the tenant headers pick the ' +
      'company acted on.',
    Mutation: 'Writes, each committed whole or not at all. Public ones (login, register, password reset) say so.',
    Subscription: 'Live updates over WebSocket (graphql-ws), authenticated by connectionParams.',
  };
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()])
    if (type) type.description = roots[type.name as keyof typeof roots];
  return schema;
}

function buildTypeGraphQLSchema(): GraphQLSchema {
  return buildSchemaSync({
    resolvers,
    directives: [...specifiedDirectives, CutoffDirective],
    // Inputs are checked by hand where the rules need the database; class-validator adds nothing here.
    validate: false,
    // Every subscription brings its own `subscribe` over the live feed (src/graphql/subscriptions/stream.ts);
    // TypeGraphQL insists on a PubSub of its own all the same, which nothing may use.
    pubSub: {
      publish: () => {
        throw new Error('publish through the live feed (src/live/bus.ts)');
      },
      subscribe: () => {
        throw new Error('subscribe through the live feed (src/graphql/subscriptions/stream.ts)');
      },
    },
  });
}

const schemas = new Map<boolean, GraphQLSchema>();

/**
 * Built once per process and kind: every request shares it. `lean` (the default) rebinds field resolvers past
 * TypeGraphQL's handler (src/engine/graphql/lean-field-resolvers.ts); that changes the built schema's fields, so
 * ENGINE=plain gets a schema of its own, and one process (a test run) may hold both.
 */
export function getSchema(lean = true): GraphQLSchema {
  let schema = schemas.get(lean);
  if (!schema) {
    const built = buildTypeGraphQLSchema();
    schema = countResolvedObjects(applyCutoff(describeRoots(lean ? leanFieldResolvers(built) : built)));
    schemas.set(lean, schema);
  }
  return schema;
}
