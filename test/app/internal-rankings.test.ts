// Internal rankings (src/app/internal-rankings.ts) called on a request scope, without HTTP: private leagues made,
// joined and left in the caller's own company, with the notifications each invitation queues.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInternalRanking,
  inviteToInternalRanking,
  leaveInternalRanking,
  myInternalRankingInvitations,
  myInternalRankings,
  respondToInternalRankingInvitation,
} from '../../src/app/internal-rankings.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });
const user = (email: `player${number}@demo.test` | `player${number}@globex.test`) => database.demo.users[email];

beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const members = async (rankingId: number) =>
  (await database.db.prisma.internalRankingMembership.findMany({ where: { rankingId } })).map((m) => m.userId).sort();

const notifications = (userId: number, type: string) =>
  database.db.prisma.notification.findMany({ where: { userId, type: type as never } });

describe('createInternalRanking', () => {
  it('a player makes one in their own company and is its owner and first member', async () => {
    const league = await createInternalRanking(
      await testScope(database, 'player'),
      database.demo.tournament,
      ' Desk 4 ',
    );
    expect(await database.db.prisma.internalRanking.findUniqueOrThrow({ where: { id: league.id } })).toMatchObject({
      companyId: database.demo.companies.DEMO,
      ownerId: user('player1@demo.test'),
      name: 'Desk 4',
    });
    expect(await members(league.id)).toEqual([user('player1@demo.test')]);
    expect((await myInternalRankings(await testScope(database, 'player'))).map((r) => r.id)).toContain(league.id);
  });

  it('refuses a bad name, a tournament not played, the anonymous and a reseller acting there', async () => {
    const tournament = database.demo.tournament;
    const player = await testScope(database, 'player');
    await expect(createInternalRanking(player, tournament, '  ')).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'name'),
    );
    await expect(createInternalRanking(player, tournament, 'x'.repeat(101))).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'name'),
    );
    const world = await database.db.prisma.country.findFirstOrThrow({ where: { name: 'World' } });
    const globexCup = await database.db.prisma.tournament.create({
      data: { name: 'Globex Cup', countryId: world.id, ownerCompanyId: database.demo.companies.GLOBEX },
    });
    await expect(createInternalRanking(player, globexCup.id, 'Refused')).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(createInternalRanking(await testScope(database, null), tournament, 'Refused')).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    await expect(createInternalRanking(reseller, tournament, 'Refused')).rejects.toMatchObject(code('FORBIDDEN'));
    expect(await database.db.prisma.internalRanking.count({ where: { name: 'Refused' } })).toBe(0);
  });

  it('is FORBIDDEN where the company switched internal rankings off', async () => {
    const globex = database.demo.companies.GLOBEX;
    await database.db.prisma.company.update({ where: { id: globex }, data: { disableInternalRankings: true } });
    try {
      const player = await testScope(database, 'globexPlayer');
      await expect(createInternalRanking(player, database.demo.tournament, 'Switched off')).rejects.toMatchObject(
        code('FORBIDDEN'),
      );
      await expect(myInternalRankings(player)).rejects.toMatchObject(code('FORBIDDEN'));
      await expect(myInternalRankingInvitations(player)).rejects.toMatchObject(code('FORBIDDEN'));
    } finally {
      await database.db.prisma.company.update({ where: { id: globex }, data: { disableInternalRankings: false } });
    }
    expect(await database.db.prisma.internalRanking.count({ where: { name: 'Switched off' } })).toBe(0);
  });
});

describe('invitations', () => {
  it('the owner invites a colleague, who is notified; accepting joins and notifies the owner', async () => {
    const owner = await testScope(database, 'player');
    const league = await createInternalRanking(owner, database.demo.tournament, 'Invited');
    const invitation = await inviteToInternalRanking(owner, league.id, user('player2@demo.test'));
    expect(invitation).toMatchObject({ status: 'PENDING', invitedById: user('player1@demo.test') });
    const received = await notifications(user('player2@demo.test'), 'internalRankingInvitationReceived');
    expect(received.map((n) => n.payload)).toContainEqual(
      expect.objectContaining({ rankingId: league.id, rankingName: 'Invited' }),
    );
    const pending = await myInternalRankingInvitations(await testScope(database, 'player2'));
    expect(pending.map((i) => i.id)).toContain(invitation.id);

    // Only the invited user answers.
    await expect(
      respondToInternalRankingInvitation(await testScope(database, 'admin'), invitation.id, true),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    const accepted = await respondToInternalRankingInvitation(
      await testScope(database, 'player2'),
      invitation.id,
      true,
    );
    expect(accepted.status).toBe('ACCEPTED');
    expect(await members(league.id)).toEqual([user('player1@demo.test'), user('player2@demo.test')].sort());
    const answered = await notifications(user('player1@demo.test'), 'internalRankingInvitationAccepted');
    expect(answered.map((n) => n.payload)).toContainEqual(expect.objectContaining({ rankingId: league.id }));
    await expect(
      respondToInternalRankingInvitation(await testScope(database, 'player2'), invitation.id, false),
    ).rejects.toMatchObject(code('CONFLICT'));
    await expect(inviteToInternalRanking(owner, league.id, user('player2@demo.test'))).rejects.toMatchObject(
      code('CONFLICT'),
    );
  });

  it('rejecting leaves the league as it was and tells the owner; inviting again renews the invitation', async () => {
    const owner = await testScope(database, 'player');
    const league = await createInternalRanking(owner, database.demo.tournament, 'Rejected');
    const invitation = await inviteToInternalRanking(owner, league.id, user('player2@demo.test'));
    const rejected = await respondToInternalRankingInvitation(
      await testScope(database, 'player2'),
      invitation.id,
      false,
    );
    expect(rejected).toMatchObject({ status: 'REJECTED' });
    expect(await members(league.id)).toEqual([user('player1@demo.test')]);
    const told = await notifications(user('player1@demo.test'), 'internalRankingInvitationRejected');
    expect(told.map((n) => n.payload)).toContainEqual(expect.objectContaining({ rankingId: league.id }));
    const renewed = await inviteToInternalRanking(owner, league.id, user('player2@demo.test'));
    expect(renewed).toMatchObject({ id: invitation.id, status: 'PENDING', respondedAt: null });
    const rows = await database.db.prisma.internalRankingInvitation.findMany({ where: { rankingId: league.id } });
    expect(rows.map((r) => r.status)).toEqual(['PENDING']);
  });

  it('only the owner invites, and only a colleague of the same company', async () => {
    const owner = await testScope(database, 'player');
    const league = await createInternalRanking(owner, database.demo.tournament, 'Closed door');
    await expect(
      inviteToInternalRanking(await testScope(database, 'player2'), league.id, user('player4@demo.test')),
    ).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(inviteToInternalRanking(owner, league.id, user('player1@globex.test'))).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(
      inviteToInternalRanking(await testScope(database, 'globexPlayer'), league.id, user('player2@globex.test')),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    expect(await database.db.prisma.internalRankingInvitation.count({ where: { rankingId: league.id } })).toBe(0);
    expect(await notifications(user('player1@globex.test'), 'internalRankingInvitationReceived')).toEqual([]);
  });
});

describe('leaveInternalRanking', () => {
  it('a member leaves; the owner leaving closes the league for everyone; an outsider gets NOT_FOUND', async () => {
    const owner = await testScope(database, 'player');
    const league = await createInternalRanking(owner, database.demo.tournament, 'Leaving');
    const invitation = await inviteToInternalRanking(owner, league.id, user('player2@demo.test'));
    await respondToInternalRankingInvitation(await testScope(database, 'player2'), invitation.id, true);

    await expect(leaveInternalRanking(await testScope(database, 'admin'), league.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(leaveInternalRanking(await testScope(database, 'globexPlayer'), league.id)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    expect(await members(league.id)).toHaveLength(2);
    await leaveInternalRanking(await testScope(database, 'player2'), league.id);
    expect(await members(league.id)).toEqual([user('player1@demo.test')]);
    await leaveInternalRanking(owner, league.id);
    expect(await database.db.prisma.internalRanking.findUnique({ where: { id: league.id } })).toBeNull();
    expect(await members(league.id)).toEqual([]);
  });
});
