// Invitation (spec 2.8) in its two forms: the PATCH form (company compact) and the public JWT-lookup form (company
// full, area ids present). Both return the same externalId (resolvers/invitation.fields.ts).
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Role } from '../enums.ts';
import { ExtraFieldValueInput } from './people.ts';

/** Fields both forms share; relation fields are resolved in resolvers/invitation.fields.ts. */
@ObjectType({ description: 'An invitation.' })
abstract class InvitationBase {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Name of the person invited; null when not given.', nullable: true }) name?:
    string | null;
  @Field(() => String, { description: 'Where the invitation goes; null when not given.', nullable: true }) email?:
    string | null;
  @Field(() => Role, { description: 'The role the person gets on joining.' }) role!: string;
  @Field(() => Int, { description: 'The level-1 area they join in; null when none.', nullable: true }) areaLevel1Id?:
    number | null;
  @Field(() => Int, { description: 'The level-2 area; null when none.', nullable: true }) areaLevel2Id?: number | null;
  @Field(() => Int, { description: 'The level-3 area; null when none.', nullable: true }) areaLevel3Id?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'An invitation as PATCH /invitations/:id returns it.' })
export class Invitation extends InvitationBase {}

@ObjectType({ simpleResolvers: true, description: 'An invitation as the public lookup by JWT returns it.' })
export class PublicInvitation extends InvitationBase {}

@InputType({ description: 'A reference by id, as in the PATCH body ({ "id": 3 }).' })
export class IdRef {
  @Field(() => Int, { description: 'The id referred to.' }) id!: number;
}

@InputType({
  description: 'The PATCH /invitations/:id body (spec 4.4). Omitted fields keep their value; null clears an area.',
})
export class UpdateInvitationInput {
  @Field(() => String, { description: 'Id in an external system.', nullable: true }) externalId?: string | null;
  @Field(() => String, { description: 'Name of the person invited.', nullable: true }) name?: string | null;
  @Field(() => String, { description: 'Where the invitation goes.', nullable: true }) email?: string | null;
  @Field(() => Role, { description: "The role on joining, up to the caller's own.", nullable: true }) role?:
    string | null;
  @Field(() => IdRef, { description: 'Moves the invitation to a company the caller manages.', nullable: true })
  company?: IdRef | null;
  @Field(() => IdRef, { description: 'Level-1 area; null clears it.', nullable: true }) areaLevel1?: IdRef | null;
  @Field(() => IdRef, { description: 'Level-2 area; null clears it.', nullable: true }) areaLevel2?: IdRef | null;
  @Field(() => IdRef, { description: 'Level-3 area; null clears it.', nullable: true }) areaLevel3?: IdRef | null;
}

@InputType({ description: 'A new invitation of the current company.' })
export class CreateInvitationInput {
  @Field(() => String, { description: 'Where the invitation goes.' }) email!: string;
  @Field(() => String, { description: 'Name of the person invited.', nullable: true }) name?: string | null;
  @Field(() => String, { description: 'Id in an external system.', nullable: true }) externalId?: string | null;
  @Field(() => Role, {
    description: "The role on joining (default player), up to the caller's own.",
    defaultValue: 'player',
  })
  role!: string;
  @Field(() => IdRef, { description: 'Level-1 area of the company.', nullable: true }) areaLevel1?: IdRef | null;
  @Field(() => IdRef, { description: 'Level-2 area, under areaLevel1.', nullable: true }) areaLevel2?: IdRef | null;
  @Field(() => IdRef, { description: 'Level-3 area, under areaLevel2.', nullable: true }) areaLevel3?: IdRef | null;
}

@ObjectType({ description: 'A new invitation and its link token.', simpleResolvers: true })
export class CreatedInvitation {
  @Field(() => Invitation, { description: 'The invitation.' }) invitation!: object;
  @Field(() => String, {
    description: 'The signed value for the invitation link (GET /invitations/jwt/:jwt, acceptInvitation).',
  })
  token!: string;
}

/** acceptInvitation's arguments, in the order introspection shows them. */
@ArgsType()
export class AcceptInvitationArgs {
  @Field(() => String, { description: 'The token of the invitation link.' }) jwt!: string;
  @Field(() => String, { description: "The new user's name." }) name!: string;
  @Field(() => String, { description: "Meets the company's passwordPolicy." }) password!: string;
  @Field(() => String, { nullable: true, description: 'Needed only when the invitation has no e-mail.' }) email?:
    string | null;
  @Field(() => [ExtraFieldValueInput], {
    nullable: true,
    description:
      "Values of the company's extra fields (spec 2.5): every required field that applies to the invitation's " +
      'areas (onlyForAreas) must have one, else BAD_USER_INPUT naming it.',
  })
  extraFields?: ExtraFieldValueInput[] | null;
}
