// Community: posts, comments and likes. The work is src/app/community.ts's; these map arguments to it. The fields of
// a post and a comment are community.fields.ts's.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as community from '../../app/community.ts';
import type { Context } from '../context.ts';
import { Post, PostComment } from '../types/community.ts';

@Resolver()
export class CommunityResolver {
  @Query(() => Post, { description: 'A post of the current company (GET /posts/:id).' })
  post(
    @Arg('id', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return community.postById(ctx.scope, id);
  }

  @Query(() => [PostComment], {
    description: 'The comments of a post of the current company, oldest first (GET /posts/:postId/comments).',
  })
  postComments(
    @Arg('postId', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) postId: number,
    @Ctx() ctx: Context,
  ) {
    return community.commentsOfPost(ctx.scope, postId);
  }

  @Mutation(() => Post, {
    description: "Posts on the wall of the caller's own company, as " + 'featureSettings.community allows.',
  })
  createPost(
    @Arg('text', () => String, { description: '1 to 2000 characters.' }) text: string,
    @Ctx() ctx: Context,
    @Arg('imageUrl', () => String, {
      description: 'An https image URL, where the company allows images.',
      nullable: true,
    })
    imageUrl?: string,
  ) {
    return community.createPost(ctx.scope, { text, imageUrl });
  }

  @Mutation(() => Post, { description: 'Authors edit their own posts. imageUrl: null removes the image.' })
  updatePost(
    @Arg('id', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
    @Arg('text', () => String, { description: '1 to 2000 characters; left out: unchanged.', nullable: true })
    text?: string,
    @Arg('imageUrl', () => String, {
      description: 'An https image URL; null removes it; left out: unchanged.',
      nullable: true,
    })
    imageUrl?: string | null,
  ) {
    return community.updatePost(ctx.scope, id, { text, imageUrl });
  }

  @Mutation(() => Boolean, { description: 'Authors delete their own posts; admins moderate their company.' })
  deletePost(
    @Arg('id', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return community.deletePost(ctx.scope, id);
  }

  @Mutation(() => PostComment, {
    description: "Comments on a post of the caller's own company, as " + 'featureSettings.community allows.',
  })
  createComment(
    @Arg('postId', () => Int, { description: 'A post of the company (another: NOT_FOUND).' }) postId: number,
    @Arg('text', () => String, { description: '1 to 2000 characters.' }) text: string,
    @Ctx() ctx: Context,
  ) {
    return community.createComment(ctx.scope, postId, text);
  }

  @Mutation(() => PostComment, { description: 'Authors edit their own comments.' })
  updateComment(
    @Arg('id', () => Int, { description: 'A comment of the current company (another: NOT_FOUND).' }) id: number,
    @Arg('text', () => String, { description: '1 to 2000 characters.' }) text: string,
    @Ctx() ctx: Context,
  ) {
    return community.updateComment(ctx.scope, id, text);
  }

  @Mutation(() => Boolean, {
    description:
      "Authors delete their own comments; admins, the company's " + "reseller and managers moderate the company's.",
  })
  deleteComment(
    @Arg('id', () => Int, { description: 'A comment of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return community.deleteComment(ctx.scope, id);
  }

  @Mutation(() => Post, { description: 'Idempotent: liking twice leaves one like.' })
  likePost(
    @Arg('postId', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) postId: number,
    @Ctx() ctx: Context,
  ) {
    return community.likePost(ctx.scope, postId, true);
  }

  @Mutation(() => Post, { description: 'Idempotent.' })
  unlikePost(
    @Arg('postId', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) postId: number,
    @Ctx() ctx: Context,
  ) {
    return community.likePost(ctx.scope, postId, false);
  }

  @Mutation(() => PostComment, { description: 'Idempotent.' })
  likeComment(
    @Arg('commentId', () => Int, { description: 'A comment of the current company (another: NOT_FOUND).' })
    commentId: number,
    @Ctx() ctx: Context,
  ) {
    return community.likeComment(ctx.scope, commentId, true);
  }

  @Mutation(() => PostComment, { description: 'Idempotent.' })
  unlikeComment(
    @Arg('commentId', () => Int, { description: 'A comment of the current company (another: NOT_FOUND).' })
    commentId: number,
    @Ctx() ctx: Context,
  ) {
    return community.likeComment(ctx.scope, commentId, false);
  }
}
