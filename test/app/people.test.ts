// The people operations (src/app/people.ts) called on a request scope, without HTTP: who may list and change users,
// what each change writes, and that a person changes only their own profile, password and account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, type DemoUserEmail } from '../../prisma/seed/demo-seed.ts';
import {
  changePassword,
  DELETED_USER_NAME,
  deleteMyAccount,
  deleteUser,
  setUserActive,
  updateMe,
  updateUser,
  users,
} from '../../src/app/people.ts';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

/** A scope as any seeded person (testScope names a few logins only), on their own company's path. */
async function scopeOf(email: DemoUserEmail, appPath = 'demo') {
  const user = await database.db.prisma.user.findUniqueOrThrow({ where: { id: database.demo.users[email] } });
  const claims = { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion };
  const token = await signAccessToken(claims, database.config.jwtSecret, database.config.jwtTtlSeconds);
  return testScope(database, null, { headers: { authorization: `Bearer ${token}`, appPath } });
}

const client = (max = 100) => ({ ip: '198.51.100.50', throttle: new MemoryLoginThrottle(max, 60_000) });
const row = (email: DemoUserEmail) =>
  database.db.prisma.user.findUniqueOrThrow({ where: { id: database.demo.users[email] } });

describe('people', () => {
  it('lists only the caller company’s users, and refuses a player', async () => {
    const admin = await testScope(database, 'admin');
    const listed = await users(admin, {});
    expect(listed.length).toBeGreaterThan(1);
    expect(new Set(listed.map((u) => u.companyId))).toEqual(new Set([database.demo.companies.DEMO]));
    await expect(users(await testScope(database, 'player'), {})).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('an admin cannot deactivate a user of another company', async () => {
    const admin = await testScope(database, 'admin');
    const globexPlayer = database.demo.users['player1@globex.test'];
    await expect(setUserActive(admin, globexPlayer, false)).rejects.toMatchObject({
      extensions: { code: expect.stringMatching(/NOT_FOUND|FORBIDDEN/) },
    });
    const row = await database.db.prisma.user.findUniqueOrThrow({ where: { id: globexPlayer } });
    expect(row.deletedAt).toBeNull();
  });

  it('users filters by role, area and search, and refuses what names nothing of the company', async () => {
    const admin = await testScope(database, 'admin');
    expect((await users(admin, { role: 'admin' })).map((u) => u.email)).toEqual(['admin@demo.test']);
    const inSales = await users(admin, { areaId: database.demo.areas.Sales, take: 100 });
    expect(inSales.length).toBeGreaterThan(0);
    expect(inSales.every((u) => u.areaLevel3Id === database.demo.areas.Sales)).toBe(true);
    expect((await users(admin, { search: 'player13@' })).map((u) => u.email)).toEqual(['player13@demo.test']);
    expect(await users(admin, { search: '%' })).toEqual([]);
    await expect(users(admin, { role: 'emperor' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'role' },
    });
    await expect(users(admin, { areaId: database.demo.areas.Headquarters })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'areaId' },
    });
    await expect(users(admin, { search: 'x'.repeat(101) })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'search' },
    });
  });
});

describe('updateUser', () => {
  it('renames and places a person of the company', async () => {
    const admin = await testScope(database, 'admin');
    const { Brasil, 'São Paulo': saoPaulo } = database.demo.areas;
    const id = database.demo.users['player14@demo.test'];
    await updateUser(admin, id, { name: '  Renamed  ', areaLevel1Id: Brasil, areaLevel2Id: saoPaulo });
    expect(await row('player14@demo.test')).toMatchObject({
      name: 'Renamed',
      areaLevel1Id: Brasil,
      areaLevel2Id: saoPaulo,
      areaLevel3Id: null,
    });
  });

  it('a role change ends the person’s sessions; nobody grants a role above theirs or changes their own', async () => {
    const admin = await testScope(database, 'admin');
    const id = database.demo.users['player15@demo.test'];
    const before = await row('player15@demo.test');
    await updateUser(admin, id, { role: 'admin' });
    const after = await row('player15@demo.test');
    expect(after).toMatchObject({ role: 'admin', tokenVersion: before.tokenVersion + 1 });
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });

    await expect(updateUser(admin, id, { role: 'manager' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(updateUser(admin, database.demo.users['admin@demo.test'], { role: 'player' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(updateUser(admin, id, { role: 'emperor' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'role' },
    });
    expect((await row('player15@demo.test')).role).toBe('admin');
    expect((await row('admin@demo.test')).role).toBe('admin');
  });

  it('refuses another company’s person, areas and bad names, and changes nothing', async () => {
    const admin = await testScope(database, 'admin');
    const globexBefore = await row('player3@globex.test');
    await expect(
      updateUser(admin, database.demo.users['player3@globex.test'], { name: 'Taken over' }),
    ).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await row('player3@globex.test')).toEqual(globexBefore);

    const id = database.demo.users['player16@demo.test'];
    const before = await row('player16@demo.test');
    await expect(updateUser(admin, id, { areaLevel1Id: database.demo.areas.Headquarters })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
    });
    await expect(updateUser(admin, id, { name: ' ' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'name' },
    });
    await expect(
      updateUser(admin, id, { extraFields: [{ name: 'favouriteTeam', value: 'Narnia' }] }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(await row('player16@demo.test')).toEqual(before);
  });
});

describe('setUserActive and deleteUser', () => {
  it('deactivating ends the sessions and hides the person; reactivating brings them back', async () => {
    const admin = await testScope(database, 'admin');
    const id = database.demo.users['player17@demo.test'];
    const before = await row('player17@demo.test');
    await setUserActive(admin, id, false);
    expect(await row('player17@demo.test')).toMatchObject({ tokenVersion: before.tokenVersion + 1 });
    expect((await row('player17@demo.test')).deletedAt).not.toBeNull();
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });
    expect((await users(admin, { deactivated: true })).map((u) => u.id)).toContain(id);
    await setUserActive(admin, id, true);
    expect((await row('player17@demo.test')).deletedAt).toBeNull();
    await expect(setUserActive(admin, database.demo.users['admin@demo.test'], false)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('deleting anonymizes the person for good and keeps their predictions', async () => {
    const admin = await testScope(database, 'admin');
    const id = database.demo.users['player18@demo.test'];
    const predictions = await database.db.prisma.prediction.count({ where: { userId: id } });
    await expect(deleteUser(admin, id)).resolves.toBe(true);
    const gone = await row('player18@demo.test');
    expect(gone).toMatchObject({ name: DELETED_USER_NAME, passwordHash: null, email: `deleted ${id}@deleted.invalid` });
    expect(gone.anonymizedAt).not.toBeNull();
    expect(await database.db.prisma.prediction.count({ where: { userId: id } })).toBe(predictions);
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });
    // Gone from the lists, and no longer administered.
    await expect(deleteUser(admin, id)).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    await expect(
      deleteUser(await testScope(database, 'globexAdmin'), database.demo.users['player19@demo.test']),
    ).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect((await row('player19@demo.test')).anonymizedAt).toBeNull();
  });
});

describe('a person’s own account', () => {
  it('updateMe changes what the company allows, and refuses the rest by field', async () => {
    await expect(updateMe(await testScope(database, null), { name: 'x' })).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const me = await scopeOf('player20@demo.test');
    await updateMe(me, { name: 'Me Myself', preferredLanguage: 'pt-BR', timezone: 'America/Argentina/Buenos_Aires' });
    expect(await row('player20@demo.test')).toMatchObject({
      name: 'Me Myself',
      preferredLanguage: 'pt-BR',
      timezone: 'America/Argentina/Buenos_Aires',
    });
    const again = await scopeOf('player20@demo.test');
    // Demo Corp does not let people change their e-mail.
    await expect(updateMe(again, { email: 'elsewhere@demo.test' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    for (const [input, field] of [
      [{ preferredLanguage: 'klingon' }, 'preferredLanguage'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ profilePictureUrl: 'javascript:alert(1)' }, 'profilePictureUrl'],
    ] as const) {
      await expect(updateMe(again, input)).rejects.toMatchObject({
        extensions: { code: 'BAD_USER_INPUT', argumentName: field },
      });
    }
    expect(await row('player20@demo.test')).toMatchObject({ email: 'player20@demo.test', preferredLanguage: 'pt-BR' });
  });

  it('changePassword needs the current password, keeps the policy, and ends every session', async () => {
    const id = database.demo.users['player5@globex.test'];
    const me = await scopeOf('player5@globex.test', '');
    const before = await row('player5@globex.test');
    await expect(changePassword(me, client(), 'wrong', 'a new password')).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'currentPassword' },
    });
    await expect(changePassword(me, client(), DEMO_PASSWORD, 'short')).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'newPassword' },
    });
    expect(await row('player5@globex.test')).toEqual(before);
    await expect(changePassword(me, client(), DEMO_PASSWORD, 'a new password')).resolves.toBe(true);
    const after = await row('player5@globex.test');
    expect(await verifyPassword('a new password', after.passwordHash!)).toBe(true);
    expect(after.tokenVersion).toBe(before.tokenVersion + 1);
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });
  });

  it('wrong passwords count against the account: past the limit even the right one is refused', async () => {
    const me = await scopeOf('player6@globex.test', '');
    const throttled = client(1);
    await expect(changePassword(me, throttled, 'wrong', 'a new password')).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
    });
    await expect(changePassword(me, throttled, DEMO_PASSWORD, 'a new password')).rejects.toMatchObject({
      extensions: { code: 'RATE_LIMITED' },
    });
    expect(await verifyPassword(DEMO_PASSWORD, (await row('player6@globex.test')).passwordHash!)).toBe(true);
  });

  it('deleteMyAccount needs the password, where the company allows it', async () => {
    const id = database.demo.users['player7@globex.test'];
    const me = await scopeOf('player7@globex.test', '');
    await expect(deleteMyAccount(me, client(), 'wrong')).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'password' },
    });
    expect((await row('player7@globex.test')).anonymizedAt).toBeNull();
    await expect(deleteMyAccount(me, client(), DEMO_PASSWORD)).resolves.toBe(true);
    expect(await row('player7@globex.test')).toMatchObject({ name: DELETED_USER_NAME, passwordHash: null });
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });

    await database.db.prisma.company.update({
      where: { id: database.demo.companies.GLOBEX },
      data: { allowUserDeleteAccount: false },
    });
    const other = await scopeOf('player8@globex.test', '');
    await expect(deleteMyAccount(other, client(), DEMO_PASSWORD)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await row('player8@globex.test')).anonymizedAt).toBeNull();
  });
});
