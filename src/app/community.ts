// Community: posts, comments and likes, read in the company the request acts on. Authors write in their own
// company and edit their own; admins (and the company's reseller, and managers) delete anyone's. Every write goes
// through scope.write, so the response read after it sees it.
import { canActOnBehalf } from '../auth/request-auth.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { Prisma } from '../db/sql.ts';
import { Model, names, table } from '../db/typed-sql.ts';
import type { CommentRow, PostRow } from '../db/rows.ts';
import { featureSettings } from '../domain/defaults.ts';
import { badInput, forbidden, notFound } from '../domain/errors.ts';
import { communityWriteProblem, imageUrlProblem, textProblem } from '../domain/community-posts.ts';
import type { RequestScope } from './scope.ts';

/** The caller, their company's community settings, and a refusal when they may not write. */
function writer(scope: RequestScope, { ownCompany }: { ownCompany: boolean }) {
  const { viewer, tenant } = ownCompany
    ? scope.requireOwnCompany('community posts are written in your own company')
    : scope.requireTenant();
  const settings = featureSettings(tenant.featureSettings).community;
  const problem = communityWriteProblem(settings, viewer.role);
  if (problem && tenant.id === viewer.companyId) throw forbidden(problem);
  return { viewer, tenant, settings };
}

function checkText(text: string | null | undefined, name = 'text') {
  const problem = textProblem(text);
  if (problem) throw badInput(problem, name);
}

function checkImage(settings: ReturnType<typeof writer>['settings'], imageUrl: string | null | undefined) {
  const problem = imageUrlProblem(settings, imageUrl);
  if (problem) throw badInput(problem, 'imageUrl');
}

async function tenantPost(scope: RequestScope, id: number, tenantId: number): Promise<PostRow> {
  const post = await scope.loaders.post.load(id);
  if (!post || post.companyId !== tenantId || post.deletedAt) throw notFound('post', id);
  return post;
}

async function tenantComment(scope: RequestScope, id: number, tenantId: number): Promise<CommentRow> {
  const comment = await scope.loaders.comment.load(id);
  const post = comment ? await scope.loaders.post.load(comment.postId) : null;
  if (!comment || !post || post.companyId !== tenantId || post.deletedAt) throw notFound('comment', id);
  return comment;
}

/** A post of the company the request acts on (`post`); another company's post reads exactly like a missing one. */
export async function postById(scope: RequestScope, id: number, argName = 'id'): Promise<PostRow> {
  const { tenant } = scope.requireTenant();
  if (id < 1) throw badInput(`${argName} must be a positive integer`, argName);
  return tenantPost(scope, id, tenant.id);
}

/** The comments of a post of the company the request acts on, oldest first (`postComments`). */
export async function commentsOfPost(scope: RequestScope, postId: number): Promise<CommentRow[]> {
  const post = await postById(scope, postId, 'postId');
  return scope.loaders.commentsByPost.load(post.id);
}

/** Moderators: the company's admins, its reseller and managers. */
function moderates(scope: RequestScope, authorId: number): boolean {
  const { viewer, tenant } = scope.requireTenant();
  if (viewer.id === authorId) return true;
  if (tenant.id === viewer.companyId) return roleAtLeast(viewer.role as RoleName, 'admin');
  return canActOnBehalf(viewer, tenant);
}

export async function createPost(
  scope: RequestScope,
  input: { text: string; imageUrl?: string | null },
): Promise<PostRow> {
  const { viewer, tenant, settings } = writer(scope, { ownCompany: true });
  checkText(input.text);
  checkImage(settings, input.imageUrl);
  return scope.write((tx) =>
    tx.post.create({
      data: { companyId: tenant.id, userId: viewer.id, text: input.text.trim(), imageUrl: input.imageUrl ?? null },
    }),
  );
}

/** `text` or `imageUrl` left undefined keep theirs; `imageUrl: null` removes the image. */
export async function updatePost(
  scope: RequestScope,
  id: number,
  input: { text?: string; imageUrl?: string | null },
): Promise<PostRow> {
  const { viewer, tenant, settings } = writer(scope, { ownCompany: true });
  const post = await tenantPost(scope, id, tenant.id);
  if (post.userId !== viewer.id) throw forbidden('only the author edits a post');
  if (input.text !== undefined) checkText(input.text);
  checkImage(settings, input.imageUrl);
  const data = {
    ...(input.text !== undefined ? { text: input.text.trim() } : {}),
    ...(input.imageUrl !== undefined ? { imageUrl: input.imageUrl } : {}),
  };
  return scope.write((tx) => tx.post.update({ where: { id }, data }));
}

export async function deletePost(scope: RequestScope, id: number): Promise<true> {
  const { tenant } = writer(scope, { ownCompany: false });
  const post = await tenantPost(scope, id, tenant.id);
  if (!moderates(scope, post.userId)) throw forbidden('only the author or a moderator deletes a post');
  await scope.write((tx) => tx.post.update({ where: { id }, data: { deletedAt: scope.now } }));
  return true;
}

export async function createComment(scope: RequestScope, postId: number, text: string): Promise<CommentRow> {
  const { viewer, tenant } = writer(scope, { ownCompany: true });
  checkText(text);
  await tenantPost(scope, postId, tenant.id);
  return scope.write((tx) => tx.postComment.create({ data: { postId, userId: viewer.id, text: text.trim() } }));
}

export async function updateComment(scope: RequestScope, id: number, text: string): Promise<CommentRow> {
  const { viewer, tenant } = writer(scope, { ownCompany: true });
  checkText(text);
  const comment = await tenantComment(scope, id, tenant.id);
  if (comment.userId !== viewer.id) throw forbidden('only the author edits a comment');
  return scope.write((tx) => tx.postComment.update({ where: { id }, data: { text: text.trim() } }));
}

export async function deleteComment(scope: RequestScope, id: number): Promise<true> {
  const { tenant } = writer(scope, { ownCompany: false });
  const comment = await tenantComment(scope, id, tenant.id);
  if (!moderates(scope, comment.userId)) throw forbidden('only the author or a moderator deletes a comment');
  // deleteMany: a comment deleted concurrently leaves the same outcome, not an error.
  await scope.write((tx) => tx.postComment.deleteMany({ where: { id } }));
  return true;
}

// A like is (target, user); liking twice leaves one, unliking what is not liked changes nothing. The insert
// ignores a conflict in SQL, so no failed statement aborts the transaction (PostgreSQL would).
const LIKES = {
  post: { table: table(Model.PostLike), target: names(Model.PostLike, 'postId') },
  comment: { table: table(Model.PostCommentLike), target: names(Model.PostCommentLike, 'commentId') },
};
// The liker's and the time's columns, named alike in both tables.
const LIKER = names(Model.PostLike, 'userId');
const LIKED_AT = names(Model.PostCommentLike, 'createdAt');
type LikeKind = keyof typeof LIKES;

/** Likes the target, unless the user already does. */
function likeSql(kind: LikeKind, targetId: number, userId: number, now: Date) {
  const { table, target } = LIKES[kind];
  return Prisma.sql`INSERT INTO ${table} (${target}, ${LIKER}, ${LIKED_AT})
    VALUES (${targetId}, ${userId}, ${now}) ON CONFLICT DO NOTHING`;
}

/** Takes back the user's like of the target, if any. */
function unlikeSql(kind: LikeKind, targetId: number, userId: number) {
  const { table, target } = LIKES[kind];
  return Prisma.sql`DELETE FROM ${table} WHERE ${target} = ${targetId} AND ${LIKER} = ${userId}`;
}

async function setLike(scope: RequestScope, kind: LikeKind, targetId: number, userId: number, liked: boolean) {
  await scope.write((tx) =>
    tx.$executeRaw(liked ? likeSql(kind, targetId, userId, scope.now) : unlikeSql(kind, targetId, userId)),
  );
}

export async function likePost(scope: RequestScope, postId: number, liked: boolean): Promise<PostRow> {
  const { viewer, tenant } = writer(scope, { ownCompany: true });
  const post = await tenantPost(scope, postId, tenant.id);
  await setLike(scope, 'post', postId, viewer.id, liked);
  return post;
}

export async function likeComment(scope: RequestScope, commentId: number, liked: boolean): Promise<CommentRow> {
  const { viewer, tenant } = writer(scope, { ownCompany: true });
  const comment = await tenantComment(scope, commentId, tenant.id);
  await setLike(scope, 'comment', commentId, viewer.id, liked);
  return comment;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const communitySql = { likeSql, unlikeSql };
