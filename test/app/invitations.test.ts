// Invitations (src/app/invitations.ts): admins invite people to the company the request acts on, change and revoke
// invitations of that company only and never above their own role; a link's holder reads and accepts it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptInvitation,
  createInvitation,
  invitationByJwt,
  revokeInvitation,
  updateInvitation,
} from '../../src/app/invitations.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const client = (max = 100) => ({ ip: '198.51.100.60', throttle: new MemoryLoginThrottle(max, 60_000) });
const invitation = (id: number) => database.db.prisma.invitation.findUniqueOrThrow({ where: { id } });
const invitationsTo = (email: string) => database.db.prisma.invitation.findMany({ where: { email } });

describe('createInvitation', () => {
  it('invites to the caller’s company, mails the link and wakes the delivery', async () => {
    const wakes = database.wakes.mail;
    const admin = await testScope(database, 'admin');
    const { invitation: made, token } = await createInvitation(admin, {
      email: ' Guest1@Example.test ',
      name: 'Guest One',
      areaLevel1: { id: database.demo.areas.Argentina },
    });
    expect(await invitation(made.id)).toMatchObject({
      companyId: database.demo.companies.DEMO,
      email: 'guest1@example.test',
      role: 'player',
      areaLevel1Id: database.demo.areas.Argentina,
      createdById: database.demo.users['admin@demo.test'],
    });
    const [mail] = await database.db.prisma.outgoingEmail.findMany({
      where: { to: 'guest1@example.test', kind: 'invitation' },
    });
    expect(mail.text).toContain(encodeURIComponent(token));
    expect(database.wakes.mail).toBe(wakes + 1);
    expect((await invitationByJwt(await testScope(database, null), token)).id).toBe(made.id);
  });

  it('refuses an anonymous caller and a player', async () => {
    await expect(createInvitation(await testScope(database, null), { email: 'g2@example.test' })).rejects.toMatchObject(
      {
        extensions: { code: 'UNAUTHENTICATED' },
      },
    );
    await expect(
      createInvitation(await testScope(database, 'player'), { email: 'g2@example.test' }),
    ).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(await invitationsTo('g2@example.test')).toEqual([]);
  });

  it('refuses a role above the caller’s, another company’s area, a bad or taken e-mail, writing nothing', async () => {
    const admin = await testScope(database, 'admin');
    await expect(createInvitation(admin, { email: 'g3@example.test', role: 'manager' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(
      createInvitation(admin, { email: 'g3@example.test', areaLevel1: { id: database.demo.areas.Headquarters } }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(await invitationsTo('g3@example.test')).toEqual([]);
    await expect(createInvitation(admin, { email: 'not an address' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'email' },
    });
    for (const email of ['player2@demo.test', 'new.hire1@demo.test']) {
      await expect(createInvitation(admin, { email })).rejects.toMatchObject({ extensions: { code: 'CONFLICT' } });
    }
    expect(await invitationsTo('new.hire1@demo.test')).toHaveLength(1);
  });
});

describe('updateInvitation and revokeInvitation', () => {
  it('an admin of another company reaches nothing: NOT_FOUND, the row unchanged', async () => {
    const id = database.demo.invitations['new.hire1@demo.test'];
    const before = await invitation(id);
    const globexAdmin = await testScope(database, 'globexAdmin');
    await expect(updateInvitation(globexAdmin, id, { name: 'Hijacked' })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(revokeInvitation(globexAdmin, id)).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await invitation(id)).toEqual(before);
  });

  it('changes name, role and areas within the caller’s company and role', async () => {
    const admin = await testScope(database, 'admin');
    const { invitation: made } = await createInvitation(admin, { email: 'g4@example.test' });
    const changed = await updateInvitation(admin, made.id, {
      name: 'Guest Four',
      role: 'admin',
      areaLevel1: { id: database.demo.areas.Brasil },
    });
    expect(await invitation(made.id)).toMatchObject({
      id: changed.id,
      name: 'Guest Four',
      role: 'admin',
      areaLevel1Id: database.demo.areas.Brasil,
    });
    await expect(updateInvitation(admin, made.id, { role: 'reseller' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(updateInvitation(admin, made.id, { email: 'player3@demo.test' })).rejects.toMatchObject({
      extensions: { code: 'CONFLICT' },
    });
    expect(await invitation(made.id)).toMatchObject({ role: 'admin', email: 'g4@example.test' });
  });

  it('revoking stops the link', async () => {
    const admin = await testScope(database, 'admin');
    const { invitation: made, token } = await createInvitation(admin, { email: 'g5@example.test' });
    await expect(revokeInvitation(admin, made.id)).resolves.toBe(true);
    expect((await invitation(made.id)).revokedAt).not.toBeNull();
    await expect(invitationByJwt(await testScope(database, null), token)).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(
      acceptInvitation(await testScope(database, null), client(), { jwt: token, name: 'G5', password: 'a password' }),
    ).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await database.db.prisma.user.count({ where: { email: 'g5@example.test' } })).toBe(0);
  });
});

describe('acceptInvitation', () => {
  it('creates the invited person with the invitation’s role and areas, once', async () => {
    const admin = await testScope(database, 'admin');
    const { Argentina, 'Buenos Aires': buenosAires } = database.demo.areas;
    const { invitation: made, token } = await createInvitation(admin, {
      email: 'g6@example.test',
      role: 'admin',
      areaLevel1: { id: Argentina },
      areaLevel2: { id: buenosAires },
    });
    const anonymous = await testScope(database, null);
    const { user } = await acceptInvitation(anonymous, client(), {
      jwt: token,
      name: 'Guest Six',
      password: 'a password',
      extraFields: DEMO_EXTRA_FIELDS,
    });
    expect(await database.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      companyId: database.demo.companies.DEMO,
      email: 'g6@example.test',
      role: 'admin',
      emailVerified: true,
      areaLevel1Id: Argentina,
      areaLevel2Id: buenosAires,
    });
    expect((await invitation(made.id)).acceptedAt).not.toBeNull();
    await expect(
      acceptInvitation(anonymous, client(), { jwt: token, name: 'Again', password: 'a password' }),
    ).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await database.db.prisma.user.count({ where: { email: 'g6@example.test' } })).toBe(1);
  });

  it('refuses a bad name or password and leaves the invitation open', async () => {
    const { invitation: made, token } = await createInvitation(await testScope(database, 'admin'), {
      email: 'g7@example.test',
    });
    const anonymous = await testScope(database, null);
    await expect(
      acceptInvitation(anonymous, client(), { jwt: token, name: ' ', password: 'a password' }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'name' } });
    await expect(
      acceptInvitation(anonymous, client(), { jwt: token, name: 'Guest Seven', password: 'short' }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'password' } });
    expect((await invitation(made.id)).acceptedAt).toBeNull();
    expect(await database.db.prisma.user.count({ where: { email: 'g7@example.test' } })).toBe(0);
  });

  it('a made-up link opens nothing, and counts against the throttle', async () => {
    const anonymous = await testScope(database, null);
    const throttled = client(1);
    const input = { jwt: 'made.up.jwt', name: 'Nobody', password: 'a password' };
    await expect(acceptInvitation(anonymous, throttled, input)).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(acceptInvitation(anonymous, throttled, input)).rejects.toMatchObject({
      extensions: { code: 'RATE_LIMITED' },
    });
  });
});
