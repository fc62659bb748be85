// What the people operations take.
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { Role } from '../enums.ts';
import { JSON as JSONScalar } from '../scalars.ts';

@ArgsType()
export class UsersArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name or e-mail, case-insensitive, literal.' })
  search?: string | null;
  @Field(() => Role, { description: 'Only people with this role.', nullable: true }) role?: string | null;
  @Field(() => Int, { nullable: true, description: 'People placed in this area, at any level.' }) areaId?:
    number | null;
  @Field(() => Boolean, { nullable: true, description: 'true: the deactivated people instead of the active ones.' })
  deactivated?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Default 0.' }) skip?: number | null;
  @Field(() => Int, { nullable: true, description: 'Default 20, at most 100.' }) take?: number | null;
}

@InputType({ description: "A value of one of the company's extra fields." })
export class ExtraFieldValueInput {
  @Field(() => String, { description: "The name of one of the company's extra fields." }) name!: string;
  @Field(() => JSONScalar, { nullable: true, description: "A value of the field's type; null or left out: none." })
  value?: string | number | boolean | null;
}

@InputType({ description: 'Left out: unchanged. Areas given replace the placement as a whole (null clears a level).' })
export class UpdateUserInput {
  @Field(() => String, { description: 'Their name.', nullable: true }) name?: string | null;
  @Field(() => Role, { nullable: true, description: "Up to the caller's own role; nobody changes their own." })
  role?: string | null;
  @Field(() => Int, { description: 'Level-1 area; null clears it.', nullable: true }) areaLevel1Id?: number | null;
  @Field(() => Int, { description: 'Level-2 area; null clears it.', nullable: true }) areaLevel2Id?: number | null;
  @Field(() => Int, { description: 'Level-3 area; null clears it.', nullable: true }) areaLevel3Id?: number | null;
  @Field(() => [ExtraFieldValueInput], {
    nullable: true,
    description: "Every value, replacing the stored ones; checked against the company's definitions (spec 2.5).",
  })
  extraFields?: ExtraFieldValueInput[] | null;
}

@InputType({ description: "The caller's own profile. Left out: unchanged." })
export class UpdateMeInput {
  @Field(() => String, { nullable: true, description: 'Only where the company sets allowUserNameEdit.' })
  name?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Only where the company sets allowUserEmailEdit. The new address is unverified; where the company requires ' +
      'verification, a link is mailed to it and login waits for it.',
  })
  email?: string | null;
  @Field(() => String, { nullable: true, description: 'A language code like es or pt-BR.' })
  preferredLanguage?: string | null;
  @Field(() => String, { nullable: true, description: 'An IANA time zone; null clears it.' }) timezone?: string | null;
  @Field(() => String, { description: 'Profile picture URL; null removes it.', nullable: true }) profilePictureUrl?:
    string | null;
  @Field(() => String, { description: 'Portrait picture URL; null removes it.', nullable: true }) portraitPictureUrl?:
    string | null;
  @Field(() => Boolean, { description: 'Whether the guided tour is shown again.', nullable: true }) showInitialTour?:
    boolean | null;
  @Field(() => [ExtraFieldValueInput], {
    nullable: true,
    description: "Every value, replacing the stored ones; checked against the company's definitions (spec 2.5).",
  })
  extraFields?: ExtraFieldValueInput[] | null;
}
