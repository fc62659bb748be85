import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { roleAtLeast, type RoleName } from '../../auth/roles.ts';
import { featureSettings, stringArray } from '../../domain/defaults.ts';
import { rankingOf, rankingPage, type RankingScope } from '../../game/ranking-query.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput, forbidden, notFound } from '../../domain/errors.ts';
import { Ranking, RankingEntry, RankingUser } from '../types/ranking.ts';
import { paging } from '../../domain/paging.ts';

/** The round ids of one of the company's combined-rounds definitions ("<label>:<id>,<id>,..."). */
function combinedRounds(definitions: unknown, index: number): number[] {
  const list = stringArray(definitions);
  const definition = list[index];
  if (definition === undefined) throw badInput(`the company has ${list.length} combined-rounds definitions; ${index} is not one of them`, 'combinedRoundsDefinition');
  const ids = definition.slice(definition.lastIndexOf(':') + 1).split(',').map((x) => x.trim()).filter(Boolean);
  if (ids.length === 0 || ids.some((x) => !/^\d+$/.test(x))) throw badInput(`combined-rounds definition ${index} ("${definition}") is not "<label>:<roundId>,..."`, 'combinedRoundsDefinition');
  return ids.map(Number);
}

@Resolver()
export class RankingResolver {
  @Query(() => Ranking, {
    description: "A page of a tournament's ranking in the current company: general, per round, per area (any level), as the company's featureSettings.rankings allow (admins see every ranking).",
  })
  async ranking(
    @Arg('tournamentId', () => Int) tournamentId: number,
    @Ctx() ctx: Context,
    @Arg('roundId', () => Int, { nullable: true }) roundId?: number,
    @Arg('areaId', () => Int, { nullable: true }) areaId?: number,
    @Arg('skip', () => Int, { nullable: true }) skip?: number,
    @Arg('take', () => Int, { nullable: true }) take?: number,
    @Arg('roundIds', () => [Int], { nullable: true, description: 'A combined-rounds ranking: the points of these rounds together.' }) roundIds?: number[],
    @Arg('internalRankingId', () => Int, { nullable: true, description: 'Only the members of this internal ranking (the caller must be one).' }) internalRankingId?: number,
    @Arg('combinedRoundsDefinition', () => Int, {
      nullable: true,
      description: 'Index into the company\'s combinedRoundsRankingDefinitions; each definition is "<label>:<roundId>,<roundId>,..." (the label is optional).',
    })
    combinedRoundsDefinition?: number,
  ) {
    const page = paging(skip, take);
    const { viewer, tenant } = requireTenant(ctx);
    const tournaments = await ctx.loaders.tournamentsByCompany.load(tenant.id);
    if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
    if ([roundId, roundIds, combinedRoundsDefinition].filter((x) => x != null).length > 1) throw badInput('give one of roundId, roundIds and combinedRoundsDefinition', 'roundIds');
    if (combinedRoundsDefinition != null) roundIds = combinedRounds(tenant.combinedRoundsRankingDefinitions, combinedRoundsDefinition);
    const rounds = roundId != null ? [roundId] : (roundIds ?? []);
    if (rounds.length > 50) throw badInput('at most 50 rounds', 'roundIds');
    for (const id of rounds) {
      const round = await ctx.loaders.round.load(id);
      if (!round || round.tournamentId !== tournamentId) throw badInput(`round ${id} is not a round of tournament ${tournamentId}`, roundId != null ? 'roundId' : 'roundIds');
    }
    if (internalRankingId != null) {
      const league = await ctx.prisma.internalRanking.findUnique({ where: { id: internalRankingId }, include: { memberships: { where: { userId: viewer.id } } } });
      if (!league || league.companyId !== tenant.id || league.tournamentId !== tournamentId || league.memberships.length === 0) throw notFound('internal ranking', internalRankingId);
    }
    const settings = featureSettings(tenant.featureSettings).rankings;
    const privileged = roleAtLeast(viewer.role as RoleName, 'admin');
    const inArea = (id: number) => [viewer.areaLevel1Id, viewer.areaLevel2Id, viewer.areaLevel3Id].includes(id) && viewer.companyId === tenant.id;
    if (areaId != null) {
      const area = await ctx.loaders.area.load(areaId);
      if (!area || area.companyId !== tenant.id) throw notFound('area', areaId);
      if (!privileged) {
        if (settings.visibleAreaRankings === 'none') throw forbidden('area rankings are not shown in this company');
        if (settings.visibleAreaRankings === 'own' && !inArea(areaId)) throw forbidden('only the rankings of your own areas are shown');
        if (rounds.length > 0 && !settings.showRoundRankingsForAreas) throw forbidden('round rankings of areas are not shown in this company');
      }
      const min = featureSettings(tenant.featureSettings).areas.minUsersForAreaRanking;
      const members = await ctx.prisma.user.count({ where: { companyId: tenant.id, deletedAt: null, OR: [{ areaLevel1Id: areaId }, { areaLevel2Id: areaId }, { areaLevel3Id: areaId }] } });
      if (members < min) throw forbidden(`area ${areaId} has ${members} users; area rankings need at least ${min}`);
    } else if (!privileged) {
      if (rounds.length > 0 && !settings.showRoundRankings) throw forbidden('round rankings are not shown in this company');
      if (rounds.length === 0 && internalRankingId == null && !settings.showGeneralRanking) throw forbidden('the general ranking is not shown in this company');
    }

    const scope: RankingScope = { companyId: tenant.id, tournamentId, roundIds: rounds, areaId, internalRankingId };
    const callerIncluded = viewer.companyId === tenant.id && (areaId == null || inArea(areaId));
    const [{ total, entries }, me] = await Promise.all([
      rankingPage(ctx.prisma, scope, page.skip, page.take),
      callerIncluded ? rankingOf(ctx.prisma, scope, viewer.id) : Promise.resolve(null),
    ]);
    return { total, entries, me };
  }
}

@Resolver(() => RankingEntry)
export class RankingEntryFields {
  @FieldResolver(() => RankingUser, {
    nullable: true,
    description: "The ranked user. null for every entry but the caller's own when the company sets disableRankingsUserNames and the caller is a player (admins, the company's reseller and managers still see who is ranked).",
  })
  async user(@Root() entry: RankingEntry, @Ctx() ctx: Context) {
    const { viewer, tenant } = requireTenant(ctx);
    if (tenant.disableRankingsUserNames && entry.userId !== viewer.id && !roleAtLeast(viewer.role as RoleName, 'admin')) return null;
    const user = await ctx.loaders.user.load(entry.userId);
    if (!user) throw new Error('ranked user is missing');
    return user;
  }
}
