import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../context.ts';
import type { AreaRow } from '../../loaders/registry.ts';
import { Area } from '../types/area.ts';
import { Company } from '../types/company.ts';

@Resolver(() => Area)
export class AreaFields {
  @FieldResolver(() => Company, { description: 'The company the area belongs to.' }) company(
    @Root() a: AreaRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.company.load(a.companyId);
  }
  @FieldResolver(() => Area, { nullable: true, description: 'Null for a level-1 area.' })
  parentArea(@Root() a: AreaRow, @Ctx() ctx: Context) {
    return a.parentAreaId == null ? null : ctx.scope.loaders.area.load(a.parentAreaId);
  }
  @FieldResolver(() => [Area], {
    description: 'The areas one level below; [] for a level-3 area or one without children.',
  })
  childrenAreas(@Root() a: AreaRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.childAreas.load(a.id);
  }
}
