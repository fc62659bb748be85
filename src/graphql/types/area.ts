import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'A node of the three-level area tree of a company (spec 2.7).' })
export class Area {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: "The area's name, unique among its siblings." }) name!: string;
  @Field(() => Int, { description: '1, 2 or 3.' }) level!: number;
}
