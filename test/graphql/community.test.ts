import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let t: Record<string, string>;
let demoId: number;
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;

beforeAll(async () => {
  s = await startTestServer();
  t = {
    p1: await s.loginAs('player'),
    p2: await s.loginAs('player2'),
    admin: await s.loginAs('admin'),
    globex: await s.loginAs('globexPlayer'),
  };
  demoId = s.demo.companies.DEMO;
});
afterAll(() => s.close());

const CREATE =
  'mutation($text: String!, $img: String) { createPost(text: $text, imageUrl: $img) { id text imageUrl likesCount ' +
  'likedByMe displayAuthor { type name } } }';
const setCommunity = async (community: object) => {
  const demo = await s.t.db.prisma.company.findUniqueOrThrow({ where: { id: demoId } });
  const fs = demo.featureSettings as Record<string, object>;
  await s.t.db.prisma.company.update({
    where: { id: demoId },
    data: { featureSettings: { ...fs, community: { ...fs.community, ...community } } },
  });
};

describe('community', () => {
  it('posts, comments, edits and deletes with authors and moderators', async () => {
    const post = (await s.gql(CREATE, { text: '  Hello office  ', img: 'https://img.test/a.png' }, bearer(t.p1))).data
      .createPost;
    expect(post).toMatchObject({
      text: 'Hello office',
      imageUrl: 'https://img.test/a.png',
      likesCount: 0,
      likedByMe: false,
      displayAuthor: { type: 'user' },
    });
    const comment = await s.gql(
      'mutation($p: Int!) { createComment(postId: $p, text: "Nice") { id post { id commentsCount } } }',
      { p: post.id },
      bearer(t.p2),
    );
    expect(comment.data.createComment.post).toEqual({ id: post.id, commentsCount: 1 });
    const cid = comment.data.createComment.id;
    expect(
      code(
        await s.gql(
          'mutation($id: Int!) { updatePost(id: $id, text: "mine now") { id } }',
          { id: post.id },
          bearer(t.p2),
        ),
      ),
    ).toBe('FORBIDDEN');
    expect(
      code(await s.gql('mutation($id: Int!) { updateComment(id: $id, text: "x") { id } }', { id: cid }, bearer(t.p1))),
    ).toBe('FORBIDDEN');
    expect(
      (
        await s.gql(
          'mutation($id: Int!) { updatePost(id: $id, text: "Edited", imageUrl: null) { text imageUrl } }',
          { id: post.id },
          bearer(t.p1),
        )
      ).data.updatePost,
    ).toEqual({ text: 'Edited', imageUrl: null });
    expect(code(await s.gql('mutation($id: Int!) { deleteComment(id: $id) }', { id: cid }, bearer(t.p1)))).toBe(
      'FORBIDDEN',
    );
    expect(
      (await s.gql('mutation($id: Int!) { deleteComment(id: $id) }', { id: cid }, bearer(t.admin))).data.deleteComment,
    ).toBe(true);
    expect(
      (await s.gql('mutation($id: Int!) { deletePost(id: $id) }', { id: post.id }, bearer(t.p1))).data.deletePost,
    ).toBe(true);
    expect(code(await s.gql('query($id: Int!) { post(id: $id) { id } }', { id: post.id }, bearer(t.p1)))).toBe(
      'NOT_FOUND',
    );
  });

  it('likes are idempotent, also when sent in parallel', async () => {
    const post = (await s.gql(CREATE, { text: 'Like me' }, bearer(t.p1))).data.createPost;
    const likes = await Promise.all(
      Array.from({ length: 8 }, () =>
        s.gql('mutation($p: Int!) { likePost(postId: $p) { likesCount likedByMe } }', { p: post.id }, bearer(t.p2)),
      ),
    );
    for (const r of likes) expect(r.errors).toBeUndefined();
    expect(await s.t.db.prisma.postLike.count({ where: { postId: post.id } })).toBe(1);
    const again = await s.gql(
      'mutation($p: Int!) { likePost(postId: $p) { likesCount likedByMe } }',
      { p: post.id },
      bearer(t.p2),
    );
    expect(again.data.likePost).toEqual({ likesCount: 1, likedByMe: true });
    expect(
      (
        await s.gql(
          'mutation($p: Int!) { unlikePost(postId: $p) { likesCount likedByMe } }',
          { p: post.id },
          bearer(t.p2),
        )
      ).data.unlikePost,
    ).toEqual({ likesCount: 0, likedByMe: false });
    const c = (
      await s.gql('mutation($p: Int!) { createComment(postId: $p, text: "c") { id } }', { p: post.id }, bearer(t.p1))
    ).data.createComment;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        s.gql('mutation($c: Int!) { likeComment(commentId: $c) { id } }', { c: c.id }, bearer(t.p2)),
      ),
    );
    expect(await s.t.db.prisma.postCommentLike.count({ where: { commentId: c.id } })).toBe(1);
  });

  it(
    'refuses empty or oversized text, images in text-only companies, other tenants, and a disabled or closed ' +
      'community',
    async () => {
      expect((await s.gql(CREATE, { text: '   ' }, bearer(t.p1))).errors?.[0].extensions.argumentName).toBe('text');
      expect((await s.gql(CREATE, { text: 'x'.repeat(2001) }, bearer(t.p1))).errors?.[0].extensions.argumentName).toBe(
        'text',
      );
      expect(
        (await s.gql(CREATE, { text: 'x', img: 'http://insecure.test/a.png' }, bearer(t.p1))).errors?.[0].extensions
          .argumentName,
      ).toBe('imageUrl');
      const demoPost = await s.t.db.prisma.post.findFirstOrThrow({ where: { companyId: demoId } });
      expect(
        code(await s.gql('mutation($p: Int!) { likePost(postId: $p) { id } }', { p: demoPost.id }, bearer(t.globex))),
      ).toBe('NOT_FOUND');
      try {
        await setCommunity({ postAllowedContent: 'textOnly' });
        expect(
          (await s.gql(CREATE, { text: 'x', img: 'https://img.test/b.png' }, bearer(t.p1))).errors?.[0].message,
        ).toMatch(/text-only/);
        await setCommunity({ postAllowedContent: 'textAndImage', postAuthorMinRole: 'admin' });
        expect(code(await s.gql(CREATE, { text: 'x' }, bearer(t.p1)))).toBe('FORBIDDEN');
        expect(
          (await s.gql(CREATE, { text: 'From the company' }, bearer(t.admin))).data.createPost.displayAuthor.type,
        ).toBe('company');
        await setCommunity({ enabled: false, postAuthorMinRole: 'player' });
        const before = await s.t.db.prisma.post.count();
        expect(code(await s.gql(CREATE, { text: 'x' }, bearer(t.admin)))).toBe('FORBIDDEN');
        expect(
          code(await s.gql('mutation($p: Int!) { likePost(postId: $p) { id } }', { p: demoPost.id }, bearer(t.p1))),
        ).toBe('FORBIDDEN');
        expect(await s.t.db.prisma.post.count()).toBe(before);
      } finally {
        await setCommunity({ enabled: true, postAllowedContent: 'textAndImage', postAuthorMinRole: 'player' });
      }
    },
  );
});
