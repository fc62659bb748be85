import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../context.ts';
import { Area } from '../types/area.ts';
import { Company, CompanyCompact } from '../types/company.ts';
import { Invitation, PublicInvitation } from '../types/invitation.ts';

type InvitationRow = {
  id: number;
  companyId: number;
  externalId: string | null;
  areaLevel1Id: number | null;
  areaLevel2Id: number | null;
  areaLevel3Id: number | null;
};
const area = (ctx: Context, id: number | null) => (id == null ? null : ctx.loaders.area.load(id));

@Resolver(() => Invitation)
export class InvitationFields {
  @FieldResolver(() => String, {
    description: 'The external identifier; an invitation created without one answers its id.',
  })
  externalId(@Root() i: InvitationRow) {
    return i.externalId ?? String(i.id);
  }
  @FieldResolver(() => CompanyCompact, { description: 'The company invited to.' }) company(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.company.load(i.companyId);
  }
  @FieldResolver(() => Area, { description: 'The level-1 area; null when none.', nullable: true }) areaLevel1(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return area(ctx, i.areaLevel1Id);
  }
  @FieldResolver(() => Area, { description: 'The level-2 area; null when none.', nullable: true }) areaLevel2(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return area(ctx, i.areaLevel2Id);
  }
  @FieldResolver(() => Area, { description: 'The level-3 area; null when none.', nullable: true }) areaLevel3(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return area(ctx, i.areaLevel3Id);
  }
}

@Resolver(() => PublicInvitation)
export class PublicInvitationFields {
  @FieldResolver(() => Company, { description: 'The company invited to.' }) company(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.company.load(i.companyId);
  }
  @FieldResolver(() => Area, { description: 'The level-1 area; null when none.', nullable: true }) areaLevel1(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return area(ctx, i.areaLevel1Id);
  }
  @FieldResolver(() => Area, { description: 'The level-2 area; null when none.', nullable: true }) areaLevel2(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return area(ctx, i.areaLevel2Id);
  }
  @FieldResolver(() => Area, { description: 'The level-3 area; null when none.', nullable: true }) areaLevel3(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return area(ctx, i.areaLevel3Id);
  }
}
