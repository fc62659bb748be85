// News, and what the structure operations take (areas, news, extra-field definitions).
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { ExtraFieldType } from '../enums.ts';
import { DateTime, JSONObject } from '../scalars.ts';

@ObjectType({ simpleResolvers: true, description: "A company's news item." })
export class News {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: 'Its title.' }) title!: string;
  @Field(() => String, { description: 'Its text.' }) body!: string;
  @Field(() => String, { description: 'Image URL; null when none.', nullable: true }) imageUrl?: string | null;
  @Field(() => DateTime, { description: 'Players see it from then on.' }) publishedAt!: Date;
  @Field(() => DateTime, { description: 'When it was written (UTC).' }) createdAt!: Date;
}

@InputType({ description: 'A new area.' })
export class CreateAreaInput {
  @Field(() => String, { description: 'Unique among its siblings.' }) name!: string;
  @Field(() => Int, { nullable: true, description: 'The parent (the new area goes one level deeper); none: level 1.' })
  parentAreaId?: number | null;
}

@InputType({ description: "An area's new name." })
export class UpdateAreaInput {
  @Field(() => String, { description: 'Unique among its siblings.' }) name!: string;
}

@InputType({ description: 'Left out on update: unchanged. title and body are required to create.' })
export class NewsInput {
  @Field(() => String, { description: 'Its title.', nullable: true }) title?: string | null;
  @Field(() => String, { description: 'Its text.', nullable: true }) body?: string | null;
  @Field(() => String, { description: 'Image URL; null removes it.', nullable: true }) imageUrl?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'Default: now. A later date schedules it.' })
  publishedAt?: Date | null;
}

@InputType({
  description: 'An extra field people fill in (spec 2.5). Left out on update: unchanged; the name never changes.',
})
export class ExtraFieldInput {
  @Field(() => String, { nullable: true, description: 'Required to create: a letter, then letters, digits or _.' })
  name?: string | null;
  @Field(() => String, { nullable: true, description: 'Required to create.' }) kind?: string | null;
  @Field(() => ExtraFieldType, { nullable: true, description: 'Required to create.' }) type?: string | null;
  @Field(() => Boolean, { description: 'People must fill it in.', nullable: true }) isRequired?: boolean | null;
  @Field(() => JSONObject, { description: 'Free-form grouping for display.', nullable: true }) group?: object | null;
  @Field(() => JSONObject, {
    nullable: true,
    description: '{ countries?: [{ code, name }], states?: [{ code, name }] }',
  })
  locationScope?: object | null;
  @Field(() => [Int], { nullable: true, description: 'Asked only of people placed in these areas.' })
  onlyForAreas?: number[] | null;
  @Field(() => JSONObject, { nullable: true, description: 'Free-form; a select field lists its choices in options.' })
  settings?: object | null;
}
