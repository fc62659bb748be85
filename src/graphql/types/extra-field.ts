import { Field, Int, ObjectType } from 'type-graphql';
import { ExtraFieldType } from '../enums.ts';
import { JSONObject } from '../scalars.ts';

@ObjectType({ description: 'A place by code and name.', simpleResolvers: true })
export class CodeAndName {
  @Field(() => String, { description: 'Its code, e.g. AR.' }) code!: string;
  @Field(() => String, { description: 'Its name.' }) name!: string;
}

@ObjectType({ description: 'Which places a location field offers.', simpleResolvers: true })
export class LocationScope {
  @Field(() => [CodeAndName], { description: 'Countries offered; null: any.', nullable: true }) countries?:
    CodeAndName[] | null;
  @Field(() => [CodeAndName], { description: 'States offered; null: any.', nullable: true }) states?:
    CodeAndName[] | null;
}

@ObjectType({ simpleResolvers: true, description: "Definition of a company's custom user field (spec 2.5)." })
export class CompanyExtraField {
  @Field(() => String, { description: 'Stable id (referenced by reorderExtraFields, updateExtraField).' }) id!: string;
  @Field(() => String, { description: 'Key of the value on a user; never changes.' }) name!: string;
  @Field(() => String, { description: 'Free label of what it holds, set by the company.' }) kind!: string;
  @Field(() => Int, { description: "Position in the company's list: lower first." }) order!: number;
  @Field(() => Boolean, { description: 'People must fill it in.' }) isRequired!: boolean;
  @Field(() => ExtraFieldType, { description: 'The type of its values.' }) type!: string;
  @Field(() => JSONObject, { description: 'Free-form grouping for display; null when none.', nullable: true }) group?:
    object | null;
  @Field(() => LocationScope, {
    description: 'For country, state and city fields: the places offered; null: any.',
    nullable: true,
  })
  locationScope?: LocationScope | null;
  @Field(() => [Int], { description: 'Asked only of people placed in these areas; null: of everyone.', nullable: true })
  onlyForAreas?: number[] | null;
  @Field(() => JSONObject, {
    description: "Free-form settings, e.g. a select field's options; null when " + 'none.',
    nullable: true,
  })
  settings?: object | null;
}
