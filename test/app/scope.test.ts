// The request scope the operations in src/app take: its guards, and write(), which runs a transaction and makes
// the loaders forget what they read once it commits (so no operation can answer with what it read before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { resolveRequestAuth } from '../../src/auth/request-auth.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import { ObjectBudget } from '../../src/app/object-budget.ts';
import { RequestScope } from '../../src/app/scope.ts';
import { isDatabaseUnavailable, isStatementTimeout } from '../../src/db/errors.ts';
import { Loaders } from '../../src/loaders/registry.ts';
import { freshDatabase, type TestDatabase } from '../helpers/db.ts';

const SECRET = 'scope-test-secret-that-is-long-enough-0123456789';
let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
  await seedDemo(t.db.prisma);
});
afterAll(() => t.drop());

async function scopeOf(email: string | null, dbStatementTimeoutMs = 25_000) {
  const p = t.db.prisma;
  const user = email ? await p.user.findFirstOrThrow({ where: { email } }) : null;
  const token = user
    ? await signAccessToken(
        { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion },
        SECRET,
        3600,
      )
    : null;
  const auth = await resolveRequestAuth(p, { authorization: token ? `Bearer ${token}` : undefined }, SECRET);
  const now = new Date();
  const objects = new ObjectBudget(1000);
  const loaders = new Loaders(p, {
    tenantId: auth.tenant?.id ?? null,
    viewerId: auth.viewer?.id ?? null,
    now,
    budget: objects,
  });
  const mailConfig = {
    smtpUrl: null,
    folder: null,
    from: 'test@example.test',
    appUrl: 'http://127.0.0.1',
    messageIdKey: Buffer.alloc(32),
  };
  const config = {
    jwtSecret: SECRET,
    jwtTtlSeconds: 3600,
    database: t.target,
    dbStatementTimeoutMs,
    mail: mailConfig,
    rescoreInRequestMaxPredictions: 10_000,
  };
  const [live, mail, rescoring] = [{ publish: () => {} }, { wake: () => {} }, { wake: () => {} }];
  return new RequestScope({ db: p, auth, now, loaders, objects, config, mail, live, rescoring });
}

describe('RequestScope', () => {
  it('guards: anonymous is UNAUTHENTICATED, a player gets their own company as tenant', async () => {
    const anonymous = await scopeOf(null);
    expect(() => anonymous.requireViewer()).toThrow(
      expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } }),
    );
    expect(() => anonymous.requireTenant()).toThrow('a valid Bearer token is required');
    const scope = await scopeOf('player1@demo.test');
    const { viewer, tenant } = scope.requireTenant();
    expect(viewer.email).toBe('player1@demo.test');
    expect(tenant.id).toBe(viewer.companyId);
  });

  it('write() commits, then the loaders read the new state; a failed write commits nothing', async () => {
    const scope = await scopeOf('player1@demo.test');
    const post = await t.db.prisma.post.findFirstOrThrow({ orderBy: { id: 'asc' } });
    expect((await scope.loaders.post.load(post.id))!.text).toBe(post.text); // read, and cached
    await scope.write((tx) => tx.post.update({ where: { id: post.id }, data: { text: 'rewritten in a transaction' } }));
    expect((await scope.loaders.post.load(post.id))!.text).toBe('rewritten in a transaction');

    await expect(
      scope.write(async (tx) => {
        await tx.post.update({ where: { id: post.id }, data: { text: 'never committed' } });
        throw new Error('the work failed half-way');
      }),
    ).rejects.toThrow('the work failed half-way');
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).text).toBe(
      'rewritten in a transaction',
    );
  });

  it('a write that outlives its transaction is a timeout (504), not our bug; the work is rolled back', async () => {
    const scope = await scopeOf('player1@demo.test', 1); // the transaction's limit: 1 ms + 5 s
    const post = await t.db.prisma.post.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const failed = await scope
      .write(async (tx) => {
        await tx.post.update({ where: { id: post.id }, data: { text: 'too late' } });
        await new Promise((r) => setTimeout(r, 5300));
        return tx.post.findFirst();
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(failed).not.toBeNull();
    expect(isStatementTimeout(failed)).toBe(true);
    expect(isDatabaseUnavailable(failed)).toBe(false);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).text).not.toBe('too late');
  }, 20_000);
});
