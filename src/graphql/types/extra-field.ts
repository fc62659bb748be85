import { Field, Int, ObjectType } from 'type-graphql';
import { ExtraFieldType } from '../enums.ts';
import { JSONObject } from '../scalars.ts';

@ObjectType({ simpleResolvers: true })
export class CodeAndName {
  @Field(() => String) code!: string;
  @Field(() => String) name!: string;
}

@ObjectType({ simpleResolvers: true })
export class LocationScope {
  @Field(() => [CodeAndName], { nullable: true }) countries?: CodeAndName[] | null;
  @Field(() => [CodeAndName], { nullable: true }) states?: CodeAndName[] | null;
}

@ObjectType({ simpleResolvers: true, description: "Definition of a company's custom user field (spec 2.5)." })
export class CompanyExtraField {
  @Field(() => String) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) kind!: string;
  @Field(() => Int) order!: number;
  @Field(() => Boolean) isRequired!: boolean;
  @Field(() => ExtraFieldType) type!: string;
  @Field(() => JSONObject, { nullable: true }) group?: object | null;
  @Field(() => LocationScope, { nullable: true }) locationScope?: LocationScope | null;
  @Field(() => [Int], { nullable: true }) onlyForAreas?: number[] | null;
  @Field(() => JSONObject, { nullable: true }) settings?: object | null;
}
