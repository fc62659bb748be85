import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { roleAtLeast, type RoleName } from '../../domain/roles.ts';
import type { Context } from '../context.ts';
import type { CommentRow, PostRow } from '../../loaders/registry.ts';
import { DisplayAuthor, Post, PostComment, PostCommentLike, PostLike } from '../types/community.ts';
import { Company } from '../types/company.ts';
import { User } from '../types/user.ts';

type LikeRow = { id: number; userId: number; postId?: number; commentId?: number };

const load = async <T>(p: Promise<T | null>, what: string): Promise<T> => {
  const v = await p;
  if (v == null) throw new Error(`${what} is missing`);
  return v;
};

@Resolver(() => Post)
export class PostFields {
  @FieldResolver(() => User, { description: 'The author.' }) user(@Root() p: PostRow, @Ctx() ctx: Context) {
    return load(ctx.scope.loaders.user.load(p.userId), 'user');
  }
  @FieldResolver(() => Company, { description: 'The company whose wall it is on.' }) company(
    @Root() p: PostRow,
    @Ctx() ctx: Context,
  ) {
    return load(ctx.scope.loaders.company.load(p.companyId), 'company');
  }
  @FieldResolver(() => DisplayAuthor, {
    description: "Posts by the company's admins (and above) are shown as the company; others as their author.",
  })
  async displayAuthor(@Root() p: PostRow, @Ctx() ctx: Context) {
    const author = await load(ctx.scope.loaders.user.load(p.userId), 'user');
    if (roleAtLeast(author.role as RoleName, 'admin')) {
      const company = await load(ctx.scope.loaders.company.load(p.companyId), 'company');
      return { name: company.name, imageUrl: company.logoUrl, type: 'company' };
    }
    return { name: author.name, imageUrl: author.profilePictureUrl, type: 'user' };
  }
  @FieldResolver(() => [PostComment], { description: 'Its comments, oldest first; [] when none.' }) comments(
    @Root() p: PostRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.commentsByPost.load(p.id);
  }
  @FieldResolver(() => Int, { description: 'How many comments it has.' }) commentsCount(
    @Root() p: PostRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.commentCountByPost.load(p.id);
  }
  @FieldResolver(() => [PostLike], { description: 'Its likes; [] when none.' }) likes(
    @Root() p: PostRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.likesByPost.load(p.id);
  }
  @FieldResolver(() => Int, { description: 'How many likes it has.' }) likesCount(
    @Root() p: PostRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.likeCountByPost.load(p.id);
  }
  @FieldResolver(() => Boolean, { description: 'Whether the caller likes it.' }) likedByMe(
    @Root() p: PostRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.postLikedByViewer.load(p.id);
  }
}

@Resolver(() => PostComment)
export class PostCommentFields {
  @FieldResolver(() => User, { description: 'The author.' }) user(@Root() c: CommentRow, @Ctx() ctx: Context) {
    return load(ctx.scope.loaders.user.load(c.userId), 'user');
  }
  @FieldResolver(() => Post, { description: 'The post it comments on.' }) post(
    @Root() c: CommentRow,
    @Ctx() ctx: Context,
  ) {
    return load(ctx.scope.loaders.post.load(c.postId), 'post');
  }
  @FieldResolver(() => [PostCommentLike], { description: 'Its likes; [] when none.' }) likes(
    @Root() c: CommentRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.likesByComment.load(c.id);
  }
  @FieldResolver(() => Int, { description: 'How many likes it has.' }) likesCount(
    @Root() c: CommentRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.likeCountByComment.load(c.id);
  }
  @FieldResolver(() => Boolean, { description: 'Whether the caller likes it.' }) likedByMe(
    @Root() c: CommentRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.commentLikedByViewer.load(c.id);
  }
}

@Resolver(() => PostLike)
export class PostLikeFields {
  @FieldResolver(() => Post, { description: 'The post liked.' }) post(@Root() l: LikeRow, @Ctx() ctx: Context) {
    return load(ctx.scope.loaders.post.load(l.postId!), 'post');
  }
  @FieldResolver(() => User, { description: 'Who likes it.' }) user(@Root() l: LikeRow, @Ctx() ctx: Context) {
    return load(ctx.scope.loaders.user.load(l.userId), 'user');
  }
}

@Resolver(() => PostCommentLike)
export class PostCommentLikeFields {
  @FieldResolver(() => PostComment, { description: 'The comment liked.' }) comment(
    @Root() l: LikeRow,
    @Ctx() ctx: Context,
  ) {
    return load(ctx.scope.loaders.comment.load(l.commentId!), 'comment');
  }
  @FieldResolver(() => User, { description: 'Who likes it.' }) user(@Root() l: LikeRow, @Ctx() ctx: Context) {
    return load(ctx.scope.loaders.user.load(l.userId), 'user');
  }
}
