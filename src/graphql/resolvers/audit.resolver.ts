// Corrections and the audit log. The work is src/app/corrections.ts's and src/app/audit.ts's.
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as audit from '../../app/audit.ts';
import { setPredictionFor } from '../../app/corrections.ts';
import type { Context } from '../context.ts';
import { AuditKind } from '../enums.ts';
import { AuditEntry, AuditLog } from '../types/audit.ts';
import { Prediction } from '../types/football.ts';
import { UpsertPredictionInput } from '../types/game-inputs.ts';
import { RankingUser } from '../types/ranking.ts';

@ArgsType()
class AuditLogArgs implements audit.AuditLogArgs {
  @Field(() => Int, { nullable: true, description: 'Entries to skip (default 0).' }) skip?: number;
  @Field(() => Int, { nullable: true, description: 'Entries to return: 1 to 100 (default 20).' }) take?: number;
  @Field(() => AuditKind, { nullable: true, description: 'Only entries of this kind.' }) kind?: string;
  @Field(() => Int, { nullable: true, description: 'Only entries about this person or made by them.' })
  userId?: number;
}

@Resolver()
export class AuditResolver {
  @Mutation(() => Prediction, {
    description:
      "Enters or corrects a player's prediction for them, also after the deadline and kickoff: the company's admins " +
      '(for its players and admins, never themselves), its reseller and managers. Scored at once when the match ' +
      'has a result; the player is notified (predictionEnteredForYou), the prediction shows enteredBy and the ' +
      'audit log keeps the entry with the reason.',
  })
  setPredictionFor(
    @Arg('userId', () => Int, { description: 'An active person of the company.' }) userId: number,
    @Arg('input', () => UpsertPredictionInput, { description: 'The match and the predicted score.' })
    input: UpsertPredictionInput,
    @Arg('reason', () => String, { description: 'Why (required): 1 to 500 characters, shown to the player.' })
    reason: string,
    @Ctx() ctx: Context,
  ) {
    return setPredictionFor(ctx.scope, userId, input, reason);
  }

  @Query(() => AuditLog, {
    description:
      "The company's privileged changes, newest first: predictions entered for others, results of its tournaments " +
      '(custom and global ones it plays), scoring settings, roles, company settings, people deactivated, ' +
      "reactivated and deleted. For the company's admins, its reseller and managers; never players.",
  })
  auditLog(@Args(() => AuditLogArgs) args: AuditLogArgs, @Ctx() ctx: Context) {
    return audit.auditLog(ctx.scope, args);
  }
}

@Resolver(() => AuditEntry)
export class AuditEntryFields {
  @FieldResolver(() => RankingUser, {
    nullable: true,
    description: 'Who made the change (an admin, the reseller or a manager); null if the account is gone.',
  })
  actor(@Root() e: AuditEntry, @Ctx() ctx: Context) {
    return ctx.scope.loaders.user.load(e.actorId);
  }
  @FieldResolver(() => RankingUser, { nullable: true, description: 'The person the change was about; null if none.' })
  targetUser(@Root() e: AuditEntry, @Ctx() ctx: Context) {
    return e.targetUserId == null ? null : ctx.scope.loaders.user.load(e.targetUserId);
  }
}
