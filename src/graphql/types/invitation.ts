// Invitation (spec 2.8) in its two forms: the PATCH form (company compact) and the public JWT-lookup form (company
// full, area ids present). Both answer the same externalId (resolvers/invitation.fields.ts).
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Role } from '../enums.ts';

/** Fields both forms share; relation fields are resolved in resolvers/invitation.fields.ts. */
@ObjectType()
abstract class InvitationBase {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => Role) role!: string;
  @Field(() => Int, { nullable: true }) areaLevel1Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel2Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel3Id?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'An invitation as PATCH /invitations/:id returns it.' })
export class Invitation extends InvitationBase {}

@ObjectType({ simpleResolvers: true, description: 'An invitation as the public lookup by JWT returns it.' })
export class PublicInvitation extends InvitationBase {}

@InputType({ description: 'A reference by id, as in the PATCH body ({ "id": 3 }).' })
export class IdRef {
  @Field(() => Int) id!: number;
}

@InputType({
  description: 'The PATCH /invitations/:id body (spec 4.4). Omitted fields keep their value; null clears an area.',
})
export class UpdateInvitationInput {
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => Role, { nullable: true }) role?: string | null;
  @Field(() => IdRef, { nullable: true }) company?: IdRef | null;
  @Field(() => IdRef, { nullable: true }) areaLevel1?: IdRef | null;
  @Field(() => IdRef, { nullable: true }) areaLevel2?: IdRef | null;
  @Field(() => IdRef, { nullable: true }) areaLevel3?: IdRef | null;
}

@InputType({ description: 'A new invitation of the current company.' })
export class CreateInvitationInput {
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => Role, { defaultValue: 'player' }) role!: string;
  @Field(() => IdRef, { nullable: true }) areaLevel1?: IdRef | null;
  @Field(() => IdRef, { nullable: true }) areaLevel2?: IdRef | null;
  @Field(() => IdRef, { nullable: true }) areaLevel3?: IdRef | null;
}

@ObjectType({ simpleResolvers: true })
export class CreatedInvitation {
  @Field(() => Invitation) invitation!: object;
  @Field(() => String, {
    description: 'The signed value for the invitation link (GET /invitations/jwt/:jwt, acceptInvitation).',
  })
  token!: string;
}

/** acceptInvitation's arguments, in the order introspection shows them. */
@ArgsType()
export class AcceptInvitationArgs {
  @Field(() => String) jwt!: string;
  @Field(() => String) name!: string;
  @Field(() => String) password!: string;
  @Field(() => String, { nullable: true, description: 'Needed only when the invitation has no e-mail.' }) email?:
    string | null;
}
