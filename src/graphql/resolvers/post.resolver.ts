import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../context.ts';
import { badInput, notFound } from '../../domain/errors.ts';
import { Post, PostComment } from '../types/community.ts';

const positiveId = (id: number, name: string) => {
  if (id < 1) throw badInput(`${name} must be a positive integer`, name);
  return id;
};

/** A post of the tenant, or NOT_FOUND (another tenant's post is reported exactly like a missing one). */
async function tenantPost(ctx: Context, id: number, argName: string) {
  const { tenant } = ctx.scope.requireTenant();
  const post = await ctx.scope.loaders.post.load(positiveId(id, argName));
  if (!post || post.companyId !== tenant.id || post.deletedAt) throw notFound('post', id);
  return post;
}

@Resolver()
export class PostResolver {
  @Query(() => Post, { description: 'A post of the current company (GET /posts/:id).' })
  post(
    @Arg('id', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return tenantPost(ctx, id, 'id');
  }

  @Query(() => [PostComment], {
    description: 'The comments of a post of the current company, oldest first (GET /posts/:postId/comments).',
  })
  async postComments(
    @Arg('postId', () => Int, { description: 'A post of the current company (another: NOT_FOUND).' }) postId: number,
    @Ctx() ctx: Context,
  ) {
    const post = await tenantPost(ctx, postId, 'postId');
    return ctx.scope.loaders.commentsByPost.load(post.id);
  }
}
