// Community writes: posts, comments and likes. The work is src/app/community.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import * as community from '../../app/community.ts';
import type { Context } from '../context.ts';
import { Post, PostComment } from '../types/community.ts';

@Resolver()
export class CommunityResolver {
  @Mutation(() => Post)
  createPost(
    @Arg('text', () => String) text: string,
    @Ctx() ctx: Context,
    @Arg('imageUrl', () => String, { nullable: true }) imageUrl?: string,
  ) {
    return community.createPost(ctx.scope, { text, imageUrl });
  }

  @Mutation(() => Post, { description: 'Authors edit their own posts. imageUrl: null removes the image.' })
  updatePost(
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: Context,
    @Arg('text', () => String, { nullable: true }) text?: string,
    @Arg('imageUrl', () => String, { nullable: true }) imageUrl?: string | null,
  ) {
    return community.updatePost(ctx.scope, id, { text, imageUrl });
  }

  @Mutation(() => Boolean, { description: 'Authors delete their own posts; admins moderate their company.' })
  deletePost(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return community.deletePost(ctx.scope, id);
  }

  @Mutation(() => PostComment)
  createComment(
    @Arg('postId', () => Int) postId: number,
    @Arg('text', () => String) text: string,
    @Ctx() ctx: Context,
  ) {
    return community.createComment(ctx.scope, postId, text);
  }

  @Mutation(() => PostComment)
  updateComment(@Arg('id', () => Int) id: number, @Arg('text', () => String) text: string, @Ctx() ctx: Context) {
    return community.updateComment(ctx.scope, id, text);
  }

  @Mutation(() => Boolean)
  deleteComment(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return community.deleteComment(ctx.scope, id);
  }

  @Mutation(() => Post, { description: 'Idempotent: liking twice leaves one like.' })
  likePost(@Arg('postId', () => Int) postId: number, @Ctx() ctx: Context) {
    return community.likePost(ctx.scope, postId, true);
  }

  @Mutation(() => Post, { description: 'Idempotent.' })
  unlikePost(@Arg('postId', () => Int) postId: number, @Ctx() ctx: Context) {
    return community.likePost(ctx.scope, postId, false);
  }

  @Mutation(() => PostComment, { description: 'Idempotent.' })
  likeComment(@Arg('commentId', () => Int) commentId: number, @Ctx() ctx: Context) {
    return community.likeComment(ctx.scope, commentId, true);
  }

  @Mutation(() => PostComment, { description: 'Idempotent.' })
  unlikeComment(@Arg('commentId', () => Int) commentId: number, @Ctx() ctx: Context) {
    return community.likeComment(ctx.scope, commentId, false);
  }
}
