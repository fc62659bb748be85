// Sessions (src/app/sessions.ts): logoutEverywhere raises the caller's token version, which ends every token signed
// before (this one included), and tells the caller's live subscriptions to read their caller again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logoutEverywhere } from '../../src/app/sessions.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import { testScope, testStore, type TestStore } from '../helpers/scope.ts';

let store: TestStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.drop());

describe('sessions', () => {
  it('refuses an anonymous caller', async () => {
    await expect(logoutEverywhere(await testScope(store, null))).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('ends every token signed before, the caller’s own included, and announces it', async () => {
    const id = store.demo.users['player2@demo.test'];
    const before = await store.db.prisma.user.findUniqueOrThrow({ where: { id } });
    const claims = { userId: id, companyId: before.companyId, role: before.role, tokenVersion: before.tokenVersion };
    const oldToken = await signAccessToken(claims, store.config.jwtSecret, store.config.jwtTtlSeconds);
    const headers = { authorization: `Bearer ${oldToken}`, appPath: 'demo' };
    expect((await testScope(store, null, { headers })).requireViewer().id).toBe(id);

    await expect(logoutEverywhere(await testScope(store, null, { headers }))).resolves.toBe(true);
    const after = await store.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(after.tokenVersion).toBe(before.tokenVersion + 1);
    expect(store.published).toContainEqual({ kind: 'sessions', userId: id });
    // The token the caller logged out with opens nothing now; a fresh login does.
    await expect(testScope(store, null, { headers }).then((s) => s.requireViewer())).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect((await testScope(store, 'player2')).requireViewer().id).toBe(id);
  });
});
