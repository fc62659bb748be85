import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../context.ts';
import type { AreaRow } from '../../loaders/registry.ts';
import { Area } from '../types/area.ts';
import { Company } from '../types/company.ts';

@Resolver(() => Area)
export class AreaFields {
  @FieldResolver(() => Company) company(@Root() a: AreaRow, @Ctx() ctx: Context) {
    return ctx.loaders.company.load(a.companyId);
  }
  @FieldResolver(() => Area, { nullable: true, description: 'Null for a level-1 area.' })
  parentArea(@Root() a: AreaRow, @Ctx() ctx: Context) {
    return a.parentAreaId == null ? null : ctx.loaders.area.load(a.parentAreaId);
  }
  @FieldResolver(() => [Area]) childrenAreas(@Root() a: AreaRow, @Ctx() ctx: Context) {
    return ctx.loaders.childAreas.load(a.id);
  }
}
