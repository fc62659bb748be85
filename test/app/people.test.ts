// The people operations (src/app/people.ts) called on a request scope, without HTTP: who may list and change users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserActive, users } from '../../src/app/people.ts';
import { testScope, testStore, type TestStore } from '../helpers/scope.ts';

let store: TestStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.drop());

describe('people', () => {
  it('lists only the caller company’s users, and refuses a player', async () => {
    const admin = await testScope(store, 'admin');
    const listed = await users(admin, {});
    expect(listed.length).toBeGreaterThan(1);
    expect(new Set(listed.map((u) => u.companyId))).toEqual(new Set([store.demo.companies.DEMO]));
    await expect(users(await testScope(store, 'player'), {})).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('an admin cannot deactivate a user of another company', async () => {
    const admin = await testScope(store, 'admin');
    const globexPlayer = store.demo.users['player1@globex.test'];
    await expect(setUserActive(admin, globexPlayer, false)).rejects.toMatchObject({
      extensions: { code: expect.stringMatching(/NOT_FOUND|FORBIDDEN/) },
    });
    const row = await store.db.prisma.user.findUniqueOrThrow({ where: { id: globexPlayer } });
    expect(row.deletedAt).toBeNull();
  });
});
