// The company's game rules. The work is src/app/scoring-settings.ts's; this maps arguments to it.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { rescoreStatus, updateScoringSettings } from '../../app/scoring-settings.ts';
import type { Context } from '../context.ts';
import { RescoreStatus, ScoringSettingsInput, ScoringSettingsUpdate } from '../types/scoring-settings.ts';

@Resolver()
export class ScoringSettingsResolver {
  @Mutation(() => ScoringSettingsUpdate, {
    description:
      "Changes a company's game rules (its admins, its reseller, managers). A change in how points are counted " +
      'rescores every decided prediction of the company and its rankings in the same step (the response says how ' +
      'many predictions changed), or, past RESCORE_IN_REQUEST_MAX_PREDICTIONS of them, by a job per decided match ' +
      'right after it (rescoreJobsQueued). Once a match of its tournaments has kicked off, a change needs ' +
      'confirm: true (else CONFLICT).',
  })
  updateScoringSettings(
    @Arg('companyId', () => Int, { description: 'A company the caller administers (another: NOT_FOUND).' })
    companyId: number,
    @Arg('input', () => ScoringSettingsInput, { description: 'The rules to change.' }) input: ScoringSettingsInput,
    @Arg('confirm', () => Boolean, {
      description: 'Needed once a match of its tournaments has kicked off: the change rescores decided predictions.',
      defaultValue: false,
    })
    confirm: boolean,
    @Ctx() ctx: Context,
  ) {
    return updateScoringSettings(ctx.scope, companyId, { ...input }, confirm);
  }

  @Query(() => RescoreStatus, {
    description:
      "How far the company's rescoring in jobs has got (its admins, its reseller, managers); rankings meanwhile say " +
      'recomputing: true.',
  })
  rescoreStatus(
    @Arg('companyId', () => Int, { description: 'A company the caller administers (another: NOT_FOUND).' })
    companyId: number,
    @Ctx() ctx: Context,
  ) {
    return rescoreStatus(ctx.scope, companyId);
  }
}
