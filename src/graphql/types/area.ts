import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'A node of the three-level area tree of a company (spec 2.7).' })
export class Area {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => Int, { description: '1, 2 or 3.' }) level!: number;
}
