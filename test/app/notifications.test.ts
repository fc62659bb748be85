// The caller's notifications (src/app/notifications.ts): only their own are read and marked, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markNotificationsRead, myNotifications } from '../../src/app/notifications.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let mine: number[]; // player1's, oldest first
let theirs: number; // player2's
beforeAll(async () => {
  database = await appTestDatabase();
  const p = database.db.prisma;
  const note = (email: 'player1@demo.test' | 'player2@demo.test', n: number) =>
    p.notification.create({
      data: {
        companyId: database.demo.companies.DEMO,
        userId: database.demo.users[email],
        type: 'rankingsUpdated',
        payload: { n },
        dedupeKey: `app-test:${email}:${n}`,
        createdAt: new Date(Date.UTC(2030, 0, 1 + n)), // newer than the seed's
      },
    });
  mine = [];
  for (const n of [1, 2, 3, 4]) mine.push((await note('player1@demo.test', n)).id);
  theirs = (await note('player2@demo.test', 9)).id;
});
afterAll(() => database.drop());

const readAt = async (id: number) =>
  (await database.db.prisma.notification.findUniqueOrThrow({ where: { id } })).readAt;

describe('notifications', () => {
  it('refuses an anonymous caller, both to read and to mark', async () => {
    const anonymous = await testScope(database, null);
    await expect(myNotifications(anonymous, { unreadOnly: false })).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
    await expect(markNotificationsRead(anonymous)).rejects.toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('lists only the caller’s own, newest first, a page at a time', async () => {
    const scope = await testScope(database, 'player');
    const listed = await myNotifications(scope, { unreadOnly: false, take: 100 });
    expect(listed.slice(0, 4).map((n) => n.id)).toEqual([...mine].reverse());
    expect(new Set(listed.map((n) => n.userId))).toEqual(new Set([database.demo.users['player1@demo.test']]));
    expect(listed.map((n) => n.id)).not.toContain(theirs);
    expect((await myNotifications(scope, { unreadOnly: false, skip: 1, take: 2 })).map((n) => n.id)).toEqual([
      mine[2],
      mine[1],
    ]);
  });

  it('marks only the caller’s unread ones: another person’s id in the list is left alone', async () => {
    const scope = await testScope(database, 'player', { now: new Date(Date.UTC(2026, 5, 1)) });
    const unreadBefore = (await myNotifications(scope, { unreadOnly: true, take: 100 })).length;
    expect(await markNotificationsRead(scope, [mine[0], theirs])).toBe(1);
    expect(await readAt(mine[0])).toEqual(new Date(Date.UTC(2026, 5, 1)));
    expect(await readAt(theirs)).toBeNull();
    // Already read: not counted again, and unreadOnly leaves it out.
    expect(await markNotificationsRead(scope, [mine[0]])).toBe(0);
    const unread = await myNotifications(scope, { unreadOnly: true, take: 100 });
    expect(unread.map((n) => n.id)).not.toContain(mine[0]);
    expect(unread).toHaveLength(unreadBefore - 1);
  });

  it('refuses more than 1000 ids and changes nothing', async () => {
    const scope = await testScope(database, 'player');
    const readCount = () => database.db.prisma.notification.count({ where: { readAt: { not: null } } });
    const before = await readCount();
    const ids = [...mine, ...Array.from({ length: 1001 - mine.length }, (_, i) => 1_000_000 + i)];
    await expect(markNotificationsRead(scope, ids)).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'ids' },
    });
    expect(await readCount()).toBe(before);
  });

  it('without ids marks all of the caller’s, and none of anyone else’s', async () => {
    const scope = await testScope(database, 'player');
    const unreadBefore = (await myNotifications(scope, { unreadOnly: true, take: 100 })).length;
    expect(unreadBefore).toBeGreaterThan(0);
    expect(await markNotificationsRead(scope)).toBe(unreadBefore);
    expect(await myNotifications(scope, { unreadOnly: true })).toEqual([]);
    expect(await readAt(theirs)).toBeNull();
  });
});
