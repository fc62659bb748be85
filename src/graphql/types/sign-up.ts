// What sign-up takes and answers.
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { User } from './user.ts';

@InputType({ description: "A person's own account: name, e-mail and a password meeting the company's policy." })
export class RegisterInput {
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
  @Field(() => Int, { nullable: true, description: 'Only where featureSettings.areas.selfAssignOnSignUp.' })
  areaLevel1Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel2Id?: number | null;
  @Field(() => Int, { nullable: true }) areaLevel3Id?: number | null;
}

@ObjectType({ simpleResolvers: true })
export class RegisterPayload {
  @Field(() => String, {
    nullable: true,
    description: 'Send as "Authorization: Bearer <token>"; null until the e-mail is verified where the company asks.',
  })
  token!: string | null;
  @Field(() => User) user!: object;
  @Field(() => Boolean, { description: 'True: a verification link was mailed; login waits for it.' })
  emailVerificationRequired!: boolean;
}
