import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../context.ts';
import { requiredExtraFieldsFor } from '../../app/extra-field-values.ts';
import { Area } from '../types/area.ts';
import { CompanyExtraField } from '../types/extra-field.ts';
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
const area = (ctx: Context, id: number | null) => (id == null ? null : ctx.scope.loaders.area.load(id));
// The spec requires externalId in the PATCH form and allows it in the JWT lookup: both forms return the same
// value, so a client that reads it from one sees it again in the other.
const EXTERNAL_ID = 'The external identifier; an invitation created without one returns its id.';
const externalIdOf = (i: InvitationRow) => i.externalId ?? String(i.id);

@Resolver(() => Invitation)
export class InvitationFields {
  @FieldResolver(() => String, { description: EXTERNAL_ID }) externalId(@Root() i: InvitationRow) {
    return externalIdOf(i);
  }
  @FieldResolver(() => CompanyCompact, { description: 'The company invited to.' }) company(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.company.load(i.companyId);
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
  @FieldResolver(() => String, { description: EXTERNAL_ID }) externalId(@Root() i: InvitationRow) {
    return externalIdOf(i);
  }
  @FieldResolver(() => [CompanyExtraField], {
    description:
      "The company's required extra fields that apply to the invitation's areas: acceptInvitation needs a value " +
      'for each (extraFields).',
  })
  requiredExtraFields(@Root() i: InvitationRow, @Ctx() ctx: Context) {
    return requiredExtraFieldsFor(ctx.scope, i);
  }
  @FieldResolver(() => Company, { description: 'The company invited to.' }) company(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.company.load(i.companyId);
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
