// What sign-up takes and returns.
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { ExtraFieldValueInput } from './people.ts';
import { User } from './user.ts';

@InputType({ description: "A person's own account: name, e-mail and a password meeting the company's policy." })
export class RegisterInput {
  @Field(() => String, { description: "The new user's name." }) name!: string;
  @Field(() => String, { description: 'Their e-mail, not yet registered in the company.' }) email!: string;
  @Field(() => String, { description: "Meets the company's passwordPolicy." }) password!: string;
  @Field(() => Int, { nullable: true, description: 'Only where featureSettings.areas.selfAssignOnSignUp.' })
  areaLevel1Id?: number | null;
  @Field(() => Int, { description: 'Only with selfAssignOnSignUp: under areaLevel1Id.', nullable: true })
  areaLevel2Id?: number | null;
  @Field(() => Int, { description: 'Only with selfAssignOnSignUp: under areaLevel2Id.', nullable: true })
  areaLevel3Id?: number | null;
  @Field(() => [ExtraFieldValueInput], {
    nullable: true,
    description:
      "Values of the company's extra fields (spec 2.5): every required field that applies to the areas chosen " +
      '(onlyForAreas) must have one, else BAD_USER_INPUT naming it.',
  })
  extraFields?: ExtraFieldValueInput[] | null;
}

@ObjectType({ description: 'What register returns.', simpleResolvers: true })
export class RegisterPayload {
  @Field(() => String, {
    nullable: true,
    description: 'Send as "Authorization: Bearer <token>"; null until the e-mail is verified where the company asks.',
  })
  token!: string | null;
  @Field(() => User, {
    nullable: true,
    description:
      'The new account; null where the company requires a verified e-mail (verifyEmail returns it), so that the ' +
      'response is the same whether or not the e-mail already had an account.',
  })
  user!: object | null;
  @Field(() => Boolean, { description: 'True: a verification link was mailed; login waits for it.' })
  emailVerificationRequired!: boolean;
}
