// Post, PostComment and likes (spec 2.1, 2.2).
import { Field, Int, ObjectType } from 'type-graphql';
import { DisplayAuthorType } from '../enums.ts';
import { DateTime } from '../scalars.ts';

@ObjectType({
  description: 'Who a post is shown as: its author, or the company for posts by admins and above.',
  simpleResolvers: true,
})
export class DisplayAuthor {
  @Field(() => String, { description: "The author's or the company's name." }) name!: string;
  @Field(() => String, {
    description: "The author's profile picture or the company's logo; null when " + 'none.',
    nullable: true,
  })
  imageUrl?: string | null;
  @Field(() => DisplayAuthorType, { description: 'Whether the post shows as a user or as the company.' }) type!: string;
}

@ObjectType({ description: "A post on the company's community wall.", simpleResolvers: true })
export class Post {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: '1 to 2000 characters.' }) text!: string;
  @Field(() => String, { description: 'An https image URL; null for a text-only post.', nullable: true }) imageUrl?:
    string | null;
  @Field(() => DateTime, { description: 'When it was posted (UTC).' }) createdAt!: Date;
  @Field(() => DateTime, { description: 'When it was last edited (UTC); createdAt when never edited.' })
  updatedAt!: Date;
}

@ObjectType({ description: 'A comment on a post.', simpleResolvers: true })
export class PostComment {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => String, { description: '1 to 2000 characters.' }) text!: string;
  @Field(() => DateTime, { description: 'When it was written (UTC).' }) createdAt!: Date;
  @Field(() => DateTime, { description: 'When it was last edited (UTC); createdAt when never edited.' })
  updatedAt!: Date;
}

@ObjectType({ description: "A user's like of a post.", simpleResolvers: true })
export class PostLike {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
}

@ObjectType({ description: "A user's like of a comment.", simpleResolvers: true })
export class PostCommentLike {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
}
