// Sessions (src/app/sessions.ts): logoutEverywhere raises the caller's token version, which ends every token signed
// before (this one included), and tells the caller's live subscriptions to read their caller again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logoutEverywhere } from '../../src/app/sessions.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

describe('sessions', () => {
  it('refuses an anonymous caller', async () => {
    await expect(logoutEverywhere(await testScope(database, null))).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('ends every token signed before, the caller’s own included, and announces it', async () => {
    const id = database.demo.users['player2@demo.test'];
    const before = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    const claims = { userId: id, companyId: before.companyId, role: before.role, tokenVersion: before.tokenVersion };
    const oldToken = await signAccessToken(claims, database.config.jwtSecret, database.config.jwtTtlSeconds);
    const headers = { authorization: `Bearer ${oldToken}`, appPath: 'demo' };
    expect((await testScope(database, null, { headers })).requireViewer().id).toBe(id);

    await expect(logoutEverywhere(await testScope(database, null, { headers }))).resolves.toBe(true);
    const after = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(after.tokenVersion).toBe(before.tokenVersion + 1);
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });
    // The token the caller logged out with opens nothing now; a fresh login does.
    await expect(testScope(database, null, { headers }).then((s) => s.requireViewer())).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect((await testScope(database, 'player2')).requireViewer().id).toBe(id);
  });
});
