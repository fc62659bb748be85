// Post, PostComment and likes (spec 2.1, 2.2).
import { Field, Int, ObjectType } from 'type-graphql';
import { DisplayAuthorType } from '../enums.ts';
import { DateTime } from '../scalars.ts';

@ObjectType({ simpleResolvers: true })
export class DisplayAuthor {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => DisplayAuthorType) type!: string;
}

@ObjectType({ simpleResolvers: true })
export class Post {
  @Field(() => Int) id!: number;
  @Field(() => String) text!: string;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class PostComment {
  @Field(() => Int) id!: number;
  @Field(() => String) text!: string;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class PostLike {
  @Field(() => Int) id!: number;
}

@ObjectType({ simpleResolvers: true })
export class PostCommentLike {
  @Field(() => Int) id!: number;
}
