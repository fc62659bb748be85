// Community (src/app/community.ts) called on a request scope, without HTTP: posts and comments read in the company
// the request acts on; posts, comments and likes written in the caller's own company, edited by their authors,
// deleted by them or the company's moderators, and never reachable from another company.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commentsOfPost,
  createComment,
  createPost,
  deleteComment,
  deletePost,
  likeComment,
  likePost,
  postById,
  updateComment,
  updatePost,
} from '../../src/app/community.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const post = (id: number) => database.db.prisma.post.findUniqueOrThrow({ where: { id } });
const comment = (id: number) => database.db.prisma.postComment.findUnique({ where: { id } });

describe('posts', () => {
  it('a player posts in their own company; the anonymous and a reseller acting there cannot', async () => {
    const row = await createPost(await testScope(database, 'player'), { text: '  Kickoff soon!  ' });
    expect(await post(row.id)).toMatchObject({
      companyId: database.demo.companies.DEMO,
      userId: database.demo.users['player1@demo.test'],
      text: 'Kickoff soon!',
      imageUrl: null,
    });
    await expect(createPost(await testScope(database, null), { text: 'Anonymous' })).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    await expect(createPost(reseller, { text: 'From outside' })).rejects.toMatchObject(code('FORBIDDEN'));
    expect(await database.db.prisma.post.count({ where: { text: { in: ['Anonymous', 'From outside'] } } })).toBe(0);
  });

  it('names the bad argument: empty or long text, an image that is not https', async () => {
    const player = await testScope(database, 'player');
    await expect(createPost(player, { text: '   ' })).rejects.toMatchObject(field('BAD_USER_INPUT', 'text'));
    await expect(createPost(player, { text: 'x'.repeat(2001) })).rejects.toMatchObject(field('BAD_USER_INPUT', 'text'));
    await expect(
      createPost(player, { text: 'With an image', imageUrl: 'http://example.test/a.png' }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'imageUrl'));
    expect(await database.db.prisma.post.count({ where: { text: 'With an image' } })).toBe(0);
  });

  it('refuses writing where the company switched the community off', async () => {
    const globex = database.demo.companies.GLOBEX;
    const { featureSettings } = await database.db.prisma.company.findUniqueOrThrow({ where: { id: globex } });
    await database.db.prisma.company.update({
      where: { id: globex },
      data: { featureSettings: { community: { enabled: false } } },
    });
    try {
      await expect(
        createPost(await testScope(database, 'globexPlayer'), { text: 'While switched off' }),
      ).rejects.toMatchObject(code('FORBIDDEN'));
    } finally {
      await database.db.prisma.company.update({ where: { id: globex }, data: { featureSettings: featureSettings! } });
    }
    expect(await database.db.prisma.post.count({ where: { text: 'While switched off' } })).toBe(0);
  });

  it('only the author edits a post; another company’s post is NOT_FOUND', async () => {
    const row = await createPost(await testScope(database, 'player2'), {
      text: 'First draft',
      imageUrl: 'https://example.test/a.png',
    });
    const author = await testScope(database, 'player2');
    await updatePost(author, row.id, { text: 'Second draft', imageUrl: null });
    expect(await post(row.id)).toMatchObject({ text: 'Second draft', imageUrl: null });
    await expect(updatePost(await testScope(database, 'player'), row.id, { text: 'Not mine' })).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(updatePost(await testScope(database, 'admin'), row.id, { text: 'Moderated' })).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    const globexPost = database.demo.posts.globex;
    await expect(updatePost(author, globexPost, { text: 'Across companies' })).rejects.toMatchObject(code('NOT_FOUND'));
    expect((await post(row.id)).text).toBe('Second draft');
    expect((await post(globexPost)).text).toBe('Globex predictions are in!');
  });

  it('the author or a moderator deletes a post (the company’s admin, its reseller); not another player', async () => {
    const player = await testScope(database, 'player');
    const byAdmin = await createPost(player, { text: 'Deleted by the admin' });
    const byReseller = await createPost(player, { text: 'Deleted by the reseller' });
    const now = new Date(Date.now() + 60_000);
    await expect(deletePost(await testScope(database, 'player2'), byAdmin.id)).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(deletePost(await testScope(database, 'globexAdmin'), byAdmin.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    expect((await post(byAdmin.id)).deletedAt).toBeNull();
    await deletePost(await testScope(database, 'admin', { now }), byAdmin.id);
    expect((await post(byAdmin.id)).deletedAt).toEqual(now);
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    await deletePost(reseller, byReseller.id);
    expect((await post(byReseller.id)).deletedAt).not.toBeNull();
    // A deleted post takes no more comments.
    await expect(createComment(player, byAdmin.id, 'Too late')).rejects.toMatchObject(code('NOT_FOUND'));
  });
});

describe('comments', () => {
  it('a player comments on a post of their company, never on another company’s', async () => {
    const postId = database.demo.posts.demo[0];
    const row = await createComment(await testScope(database, 'player2'), postId, ' Agreed ');
    expect(await comment(row.id)).toMatchObject({
      postId,
      userId: database.demo.users['player2@demo.test'],
      text: 'Agreed',
    });
    await expect(createComment(await testScope(database, 'player2'), postId, '')).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'text'),
    );
    await expect(
      createComment(await testScope(database, 'player2'), database.demo.posts.globex, 'Across companies'),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    expect(await database.db.prisma.postComment.count({ where: { text: 'Across companies' } })).toBe(0);
  });

  it('only the author edits a comment; a moderator deletes it; another company’s admin reaches neither', async () => {
    const row = await createComment(await testScope(database, 'player'), database.demo.posts.demo[1], 'My take');
    await updateComment(await testScope(database, 'player'), row.id, 'My better take');
    expect((await comment(row.id))?.text).toBe('My better take');
    await expect(updateComment(await testScope(database, 'player2'), row.id, 'Theirs')).rejects.toMatchObject(
      code('FORBIDDEN'),
    );
    await expect(deleteComment(await testScope(database, 'player2'), row.id)).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(deleteComment(await testScope(database, 'globexAdmin'), row.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    expect((await comment(row.id))?.text).toBe('My better take');
    await deleteComment(await testScope(database, 'admin'), row.id);
    expect(await comment(row.id)).toBeNull();
  });
});

describe('likes', () => {
  it('liking twice leaves one like, unliking removes it; another company’s post or comment is NOT_FOUND', async () => {
    const postId = database.demo.posts.demo[4];
    const userId = database.demo.users['player2@demo.test'];
    const likes = () => database.db.prisma.postLike.count({ where: { postId, userId } });
    const player = await testScope(database, 'player2');
    await likePost(player, postId, false);
    expect(await likes()).toBe(0);
    await likePost(player, postId, true);
    await likePost(await testScope(database, 'player2'), postId, true);
    expect(await likes()).toBe(1);

    const commentRow = await createComment(player, postId, 'Like me');
    const commentLikes = () => database.db.prisma.postCommentLike.count({ where: { commentId: commentRow.id } });
    await likeComment(await testScope(database, 'player'), commentRow.id, true);
    await likeComment(await testScope(database, 'player'), commentRow.id, true);
    expect(await commentLikes()).toBe(1);
    await likeComment(await testScope(database, 'player'), commentRow.id, false);
    expect(await commentLikes()).toBe(0);

    const globexPost = database.demo.posts.globex;
    const globexLikes = await database.db.prisma.postLike.count({ where: { postId: globexPost } });
    await expect(likePost(player, globexPost, true)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(likeComment(await testScope(database, 'globexPlayer'), commentRow.id, true)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    expect(await database.db.prisma.postLike.count({ where: { postId: globexPost } })).toBe(globexLikes);
    expect(await commentLikes()).toBe(0);
  });
});

describe('reading', () => {
  it('a post and its comments, oldest first, where the request acts; another company’s reads as missing', async () => {
    const postId = database.demo.posts.demo[2];
    const player = await testScope(database, 'player');
    const first = await createComment(player, postId, 'First');
    const second = await createComment(await testScope(database, 'player2'), postId, 'Second');
    expect(await postById(await testScope(database, 'player'), postId)).toMatchObject({ id: postId });
    const comments = await commentsOfPost(await testScope(database, 'player'), postId);
    expect(comments.map((c) => c.id).slice(-2)).toEqual([first.id, second.id]);
    expect(comments.map((c) => c.createdAt.getTime())).toEqual(
      [...comments.map((c) => c.createdAt.getTime())].sort((a, b) => a - b),
    );
    // Of the company it acts on, with every comment the database holds, in its order.
    const seeded = database.demo.posts.demo[0];
    expect(await postById(player, seeded)).toMatchObject({ id: seeded, companyId: database.demo.companies.DEMO });
    const stored = await database.db.prisma.postComment.findMany({
      where: { postId: seeded },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    expect((await commentsOfPost(player, seeded)).map((c) => c.id)).toEqual(stored.map((c) => c.id));

    const globex = await testScope(database, 'globexPlayer');
    await expect(postById(globex, postId)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(commentsOfPost(globex, postId)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(postById(await testScope(database, null), postId)).rejects.toMatchObject(code('UNAUTHENTICATED'));
    // A reseller acting on the company reads it; the same post is still not another company's.
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    expect((await postById(reseller, postId)).id).toBe(postId);
  });

  it('a deleted post and its comments are NOT_FOUND; an id below 1 names its argument', async () => {
    const row = await createPost(await testScope(database, 'player'), { text: 'Soon gone' });
    await deletePost(await testScope(database, 'player'), row.id);
    await expect(postById(await testScope(database, 'player'), row.id)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(commentsOfPost(await testScope(database, 'player'), row.id)).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(postById(await testScope(database, 'player'), 0)).rejects.toMatchObject(field('BAD_USER_INPUT', 'id'));
    await expect(commentsOfPost(await testScope(database, 'player'), -1)).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'postId'),
    );
  });
});
