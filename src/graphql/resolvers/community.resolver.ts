// Community writes: posts, comments and likes. Everything happens in the caller's own company; authors
// edit and delete their own, admins (and the company's reseller, and managers) delete anyone's.
import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { canActOnBehalf } from '../../auth/request-auth.ts';
import { roleAtLeast, type RoleName } from '../../auth/roles.ts';
import { featureSettings } from '../../domain/defaults.ts';
import { communityWriteProblem, imageUrlProblem, textProblem } from '../../game/community.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput, forbidden, notFound } from '../../domain/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { CommentRow, PostRow } from '../loaders/registry.ts';
import { Post, PostComment } from '../types/community.ts';

const isMissing = (err: unknown) => (err as { code?: string }).code === 'P2025';

/** The caller, their company's community settings, and a refusal when they may not write. */
function writer(ctx: Context, { ownCompany }: { ownCompany: boolean }) {
  const { viewer, tenant } = requireTenant(ctx);
  if (ownCompany && tenant.id !== viewer.companyId) throw forbidden('community posts are written in your own company');
  const settings = featureSettings(tenant.featureSettings).community;
  const problem = communityWriteProblem(settings, viewer.role);
  if (problem && tenant.id === viewer.companyId) throw forbidden(problem);
  return { viewer, tenant, settings };
}

function checkText(text: string | null | undefined, name = 'text') {
  const problem = textProblem(text);
  if (problem) throw badInput(problem, name);
}

async function tenantPost(ctx: Context, id: number, tenantId: number): Promise<PostRow> {
  const post = await ctx.loaders.post.load(id);
  if (!post || post.companyId !== tenantId || post.deletedAt) throw notFound('post', id);
  return post;
}

async function tenantComment(ctx: Context, id: number, tenantId: number): Promise<CommentRow> {
  const comment = await ctx.loaders.comment.load(id);
  const post = comment ? await ctx.loaders.post.load(comment.postId) : null;
  if (!comment || !post || post.companyId !== tenantId || post.deletedAt) throw notFound('comment', id);
  return comment;
}

/** Moderators: the company's admins, its reseller and managers. */
function moderates(ctx: Context, authorId: number): boolean {
  const { viewer, tenant } = requireTenant(ctx);
  if (viewer.id === authorId) return true;
  if (tenant.id === viewer.companyId) return roleAtLeast(viewer.role as RoleName, 'admin');
  return canActOnBehalf(viewer, tenant);
}

@Resolver()
export class CommunityResolver {
  @Mutation(() => Post)
  async createPost(@Arg('text', () => String) text: string, @Ctx() ctx: Context, @Arg('imageUrl', () => String, { nullable: true }) imageUrl?: string) {
    const { viewer, tenant, settings } = writer(ctx, { ownCompany: true });
    checkText(text);
    const imageProblem = imageUrlProblem(settings, imageUrl);
    if (imageProblem) throw badInput(imageProblem, 'imageUrl');
    const post = await ctx.prisma.post.create({ data: { companyId: tenant.id, userId: viewer.id, text: text.trim(), imageUrl: imageUrl ?? null } });
    ctx.loaders.clearAll();
    return post;
  }

  @Mutation(() => Post, { description: 'Authors edit their own posts. imageUrl: null removes the image.' })
  async updatePost(@Arg('id', () => Int) id: number, @Ctx() ctx: Context, @Arg('text', () => String, { nullable: true }) text?: string, @Arg('imageUrl', () => String, { nullable: true }) imageUrl?: string | null) {
    const { viewer, tenant, settings } = writer(ctx, { ownCompany: true });
    const post = await tenantPost(ctx, id, tenant.id);
    if (post.userId !== viewer.id) throw forbidden('only the author edits a post');
    if (text !== undefined) checkText(text);
    const imageProblem = imageUrlProblem(settings, imageUrl);
    if (imageProblem) throw badInput(imageProblem, 'imageUrl');
    const updated = await ctx.prisma.post.update({ where: { id }, data: { ...(text !== undefined ? { text: text.trim() } : {}), ...(imageUrl !== undefined ? { imageUrl } : {}) } });
    ctx.loaders.clearAll();
    return updated;
  }

  @Mutation(() => Boolean, { description: 'Authors delete their own posts; admins moderate their company.' })
  async deletePost(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    const { tenant } = writer(ctx, { ownCompany: false });
    const post = await tenantPost(ctx, id, tenant.id);
    if (!moderates(ctx, post.userId)) throw forbidden('only the author or a moderator deletes a post');
    await ctx.prisma.post.update({ where: { id }, data: { deletedAt: ctx.now } });
    ctx.loaders.clearAll();
    return true;
  }

  @Mutation(() => PostComment)
  async createComment(@Arg('postId', () => Int) postId: number, @Arg('text', () => String) text: string, @Ctx() ctx: Context) {
    const { viewer, tenant } = writer(ctx, { ownCompany: true });
    checkText(text);
    await tenantPost(ctx, postId, tenant.id);
    const comment = await ctx.prisma.postComment.create({ data: { postId, userId: viewer.id, text: text.trim() } });
    ctx.loaders.clearAll();
    return comment;
  }

  @Mutation(() => PostComment)
  async updateComment(@Arg('id', () => Int) id: number, @Arg('text', () => String) text: string, @Ctx() ctx: Context) {
    const { viewer, tenant } = writer(ctx, { ownCompany: true });
    checkText(text);
    const comment = await tenantComment(ctx, id, tenant.id);
    if (comment.userId !== viewer.id) throw forbidden('only the author edits a comment');
    const updated = await ctx.prisma.postComment.update({ where: { id }, data: { text: text.trim() } });
    ctx.loaders.clearAll();
    return updated;
  }

  @Mutation(() => Boolean)
  async deleteComment(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    const { tenant } = writer(ctx, { ownCompany: false });
    const comment = await tenantComment(ctx, id, tenant.id);
    if (!moderates(ctx, comment.userId)) throw forbidden('only the author or a moderator deletes a comment');
    await ctx.prisma.postComment.delete({ where: { id } }).catch((err) => {
      if (!isMissing(err)) throw err; // deleted concurrently: the outcome is the same
    });
    ctx.loaders.clearAll();
    return true;
  }

  @Mutation(() => Post, { description: 'Idempotent: liking twice leaves one like.' })
  async likePost(@Arg('postId', () => Int) postId: number, @Ctx() ctx: Context) {
    const { viewer, tenant } = writer(ctx, { ownCompany: true });
    const post = await tenantPost(ctx, postId, tenant.id);
    await ctx.prisma.postLike.create({ data: { postId, userId: viewer.id } }).catch((err) => {
      if (!isUniqueViolation(err)) throw err;
    });
    ctx.loaders.clearAll();
    return post;
  }

  @Mutation(() => Post, { description: 'Idempotent.' })
  async unlikePost(@Arg('postId', () => Int) postId: number, @Ctx() ctx: Context) {
    const { viewer, tenant } = writer(ctx, { ownCompany: true });
    const post = await tenantPost(ctx, postId, tenant.id);
    await ctx.prisma.postLike.deleteMany({ where: { postId, userId: viewer.id } });
    ctx.loaders.clearAll();
    return post;
  }

  @Mutation(() => PostComment, { description: 'Idempotent.' })
  async likeComment(@Arg('commentId', () => Int) commentId: number, @Ctx() ctx: Context) {
    const { viewer, tenant } = writer(ctx, { ownCompany: true });
    const comment = await tenantComment(ctx, commentId, tenant.id);
    await ctx.prisma.postCommentLike.create({ data: { commentId, userId: viewer.id } }).catch((err) => {
      if (!isUniqueViolation(err)) throw err;
    });
    ctx.loaders.clearAll();
    return comment;
  }

  @Mutation(() => PostComment, { description: 'Idempotent.' })
  async unlikeComment(@Arg('commentId', () => Int) commentId: number, @Ctx() ctx: Context) {
    const { viewer, tenant } = writer(ctx, { ownCompany: true });
    const comment = await tenantComment(ctx, commentId, tenant.id);
    await ctx.prisma.postCommentLike.deleteMany({ where: { commentId, userId: viewer.id } });
    ctx.loaders.clearAll();
    return comment;
  }
}
