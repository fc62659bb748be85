// The request scope the operations in src/app take: its guards, and write(), which runs a transaction and makes
// the loaders forget what they read once it commits (so no operation can return what it read before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visibilityKey } from '../../src/app/scope.ts';
import { isDatabaseUnavailable, isStatementTimeout } from '../../src/db/errors.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

describe('visibilityKey', () => {
  it('is the same for two players of one company; differs by company, role, settings, acting', async () => {
    const key = async (...args: Parameters<typeof testScope> extends [unknown, ...infer R] ? R : never) =>
      visibilityKey((await testScope(database, ...args)).auth);
    const player = await key('player');
    expect(player).not.toBeNull();
    // Another read of the rows (other objects), another player of the company: the same.
    expect(await key('player2')).toBe(player);
    const others = [
      await key('globexPlayer'),
      await key('admin'),
      await key('manager', { headers: { appPath: 'demo' } }),
    ];
    for (const other of others) expect(other).not.toBeNull();
    expect(new Set([player, ...others]).size).toBe(4);
    // A setting of the company changed (its prediction deadline; nothing else in this file reads it): its callers
    // read the row again and differ from before.
    const settings = { predictionDeadlineMinutes: 15 };
    await database.db.prisma.company.update({
      where: { id: database.demo.companies.DEMO },
      data: { scoringSettings: settings },
    });
    expect(await key('player')).not.toBe(player);
    expect(await key('player2')).toBe(await key('player'));
  });

  it('is null where requireTenant refuses: that answer is the caller’s alone', async () => {
    expect(visibilityKey((await testScope(database, null)).auth)).toBeNull();
    const broken = await testScope(database, null, { headers: { authorization: 'Bearer not-a-token' } });
    expect(broken.auth.viewerError).not.toBeNull();
    expect(visibilityKey(broken.auth)).toBeNull();
    const foreign = await testScope(database, 'player', { headers: { appPath: 'partners' } });
    expect(foreign.auth.tenantError).not.toBeNull();
    expect(visibilityKey(foreign.auth)).toBeNull();
  });
});

describe('RequestScope', () => {
  it('guards: anonymous is UNAUTHENTICATED, a player gets their own company as tenant', async () => {
    const anonymous = await testScope(database, null);
    expect(() => anonymous.requireViewer()).toThrow(
      expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } }),
    );
    expect(() => anonymous.requireTenant()).toThrow('a valid Bearer token is required');
    const scope = await testScope(database, 'player');
    const { viewer, tenant } = scope.requireTenant();
    expect(viewer.email).toBe('player1@demo.test');
    expect(tenant.id).toBe(viewer.companyId);
  });

  it('write() commits, then the loaders read the new state; a failed write commits nothing', async () => {
    const scope = await testScope(database, 'player');
    const post = await database.db.prisma.post.findFirstOrThrow({ orderBy: { id: 'asc' } });
    expect((await scope.loaders.post.load(post.id))!.text).toBe(post.text); // read, and cached
    await scope.write((tx) => tx.post.update({ where: { id: post.id }, data: { text: 'rewritten in a transaction' } }));
    expect((await scope.loaders.post.load(post.id))!.text).toBe('rewritten in a transaction');

    await expect(
      scope.write(async (tx) => {
        await tx.post.update({ where: { id: post.id }, data: { text: 'never committed' } });
        throw new Error('the work failed half-way');
      }),
    ).rejects.toThrow('the work failed half-way');
    expect((await database.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).text).toBe(
      'rewritten in a transaction',
    );
  });

  it('a write that outlives its transaction is a timeout (504), not our bug; the work is rolled back', async () => {
    // The same database under DB_STATEMENT_TIMEOUT_MS=1: the transaction's limit is 1 ms + 5 s.
    const strict = { ...database, config: { ...database.config, dbStatementTimeoutMs: 1 } };
    const scope = await testScope(strict, 'player');
    const post = await database.db.prisma.post.findFirstOrThrow({ orderBy: { id: 'asc' } });
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
    expect((await database.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).text).not.toBe('too late');
  }, 20_000);
});
