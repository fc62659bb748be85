import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import './enums.ts';
import { AreaFields } from './resolvers/area.fields.ts';
import { AuthResolver } from './resolvers/auth.resolver.ts';
import { PostCommentFields, PostCommentLikeFields, PostFields, PostLikeFields } from './resolvers/community.fields.ts';
import { CompanyCompactFields, CompanyFields } from './resolvers/company.fields.ts';
import { CompanyResolver } from './resolvers/company.resolver.ts';
import {
  CountryFields, DreamFinalsSettingFields, MatchFields, PredictionFields, RoundFields, TeamFields, TournamentFields,
} from './resolvers/football.fields.ts';
import { InvitationFields, PublicInvitationFields } from './resolvers/invitation.fields.ts';
import { InvitationResolver } from './resolvers/invitation.resolver.ts';
import { PostResolver } from './resolvers/post.resolver.ts';
import { TournamentResolver } from './resolvers/tournament.resolver.ts';
import { UserCompactFields, UserFields } from './resolvers/user.fields.ts';

export const resolvers = [
  AuthResolver, CompanyResolver, InvitationResolver, PostResolver, TournamentResolver,
  AreaFields, CompanyFields, CompanyCompactFields, UserFields, UserCompactFields, InvitationFields, PublicInvitationFields,
  TournamentFields, CountryFields, TeamFields, RoundFields, MatchFields, PredictionFields, DreamFinalsSettingFields,
  PostFields, PostCommentFields, PostLikeFields, PostCommentLikeFields,
] as const;

let schema: GraphQLSchema | undefined;

/** Built once per process: every request shares it. */
export function getSchema(): GraphQLSchema {
  schema ??= buildSchemaSync({
    resolvers: resolvers as unknown as [Function, ...Function[]],
    // Inputs are checked by hand where the rules need the database; class-validator adds nothing here.
    validate: false,
  });
  return schema;
}
