import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPending, type NotificationSender } from '../../src/notifications/sender.ts';
import { notificationsTick } from '../../src/notifications/tick.ts';
import { pendingDreamFinalsTrigger, pendingPredictionsTrigger } from '../../src/notifications/triggers.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let t: Record<string, string>;
let ids: { final: number; p1: number; p2: number; p3: number; demo: number; tournament: number };
const silent: NotificationSender = { send: async () => {} };

beforeAll(async () => {
  s = await startTestServer();
  t = {
    p1: await s.loginAs('player'),
    p2: await s.loginAs('player2'),
    p3: await s.login('player3@demo.test', 'demo'),
    manager: await s.loginAs('manager'),
  };
  const { users, matches, companies, tournament } = s.demo;
  const [p1, p2, p3] = [users['player1@demo.test'], users['player2@demo.test'], users['player3@demo.test']];
  ids = { final: matches.final, p1, p2, p3, demo: companies.DEMO, tournament };
});
afterAll(() => s.close());

const notes = (userId: number, type: string) =>
  s.t.db.prisma.notification.findMany({ where: { userId, type: type as never } });

describe('notification triggers', () => {
  it(
    'pendingMatchesPredictions: once per match, for users without a prediction, respecting disabledTypes and ' +
      'forbiddenTypes',
    async () => {
      const p = s.t.db.prisma;
      const now = new Date();
      await p.match.update({ where: { id: ids.final }, data: { date: new Date(now.getTime() + 3 * 3600e3) } });
      await p.prediction.deleteMany({ where: { matchId: ids.final, userId: { in: [ids.p1, ids.p2, ids.p3] } } });
      await p.prediction.create({ data: { matchId: ids.final, userId: ids.p1, homeTeamGoals: 1, awayTeamGoals: 0 } });
      await p.user.update({
        where: { id: ids.p2 },
        data: { notificationSettings: { disabledTypes: ['pendingMatchesPredictions'], emailEnabled: false } },
      });
      await p.company.update({
        where: { code: 'GLOBEX' },
        data: { notificationSettings: { forbiddenTypes: ['pendingMatchesPredictions'] } },
      });
      const created = await pendingPredictionsTrigger(p, now);
      expect(created).toBeGreaterThan(0);
      expect(await notes(ids.p1, 'pendingMatchesPredictions')).toHaveLength(0); // predicted already
      expect(await notes(ids.p2, 'pendingMatchesPredictions')).toHaveLength(0); // disabled by the user
      expect(await notes(ids.p3, 'pendingMatchesPredictions')).toMatchObject([
        { payload: { matchId: ids.final }, sendEmail: true },
      ]);
      expect(
        await p.notification.count({ where: { type: 'pendingMatchesPredictions', company: { code: 'GLOBEX' } } }),
      ).toBe(0); // forbidden by Globex
      expect((await p.match.findUniqueOrThrow({ where: { id: ids.final } })).alreadySentOpenNotification).toBe(true);
      expect(await pendingPredictionsTrigger(p, now)).toBe(0);
    },
  );

  it('rankingsUpdated reaches the users whose predictions a result scored', async () => {
    await s.kickOff(ids.final);
    const r = await s.gql(
      'mutation($m: Int!) { setMatchResult(input: { matchId: $m, status: FINISHED, homeTeamGoals: 1, awayTeamGoals: ' +
        '0 }) { id } }',
      { m: ids.final },
      { ...bearer(t.manager), 'x-app-path': 'demo' },
    );
    expect(r.errors).toBeUndefined();
    const aboutFinal = async (userId: number) =>
      (await notes(userId, 'rankingsUpdated')).filter((n) =>
        (n.payload as { matchIds: number[] }).matchIds.includes(ids.final),
      );
    expect(await aboutFinal(ids.p1)).toHaveLength(1);
    expect(await aboutFinal(ids.p3)).toHaveLength(0); // did not predict it
  });

  it('pendingDreamFinalPrediction: users without picks when the limit round is near', async () => {
    const p = s.t.db.prisma;
    const setting = await p.dreamFinalsSetting.findFirstOrThrow();
    const now = new Date();
    await p.round.update({
      where: { id: setting.limitRoundId },
      data: { date: new Date(now.getTime() + 24 * 3600e3) },
    });
    const created = await pendingDreamFinalsTrigger(p, now);
    const pickers = new Set(
      (await p.dreamFinalPick.findMany({ where: { settingId: setting.id } })).map((x) => x.userId),
    );
    const users = await p.user.count({ where: { companyId: ids.demo } });
    expect(created).toBe(users - pickers.size);
    expect(await pendingDreamFinalsTrigger(p, now)).toBe(0);
  });
});

describe('reading and delivering', () => {
  it('myNotifications and markNotificationsRead touch only the caller', async () => {
    const Q = '{ myNotifications(unreadOnly: true) { id type payload readAt } }';
    const mine = (await s.gql(Q, {}, bearer(t.p3))).data.myNotifications;
    expect(mine.length).toBeGreaterThan(0);
    expect(
      (await s.gql('mutation($ids: [Int!]) { markNotificationsRead(ids: $ids) }', { ids: [mine[0].id] }, bearer(t.p1)))
        .data.markNotificationsRead,
    ).toBe(0);
    expect((await s.gql('mutation { markNotificationsRead }', {}, bearer(t.p3))).data.markNotificationsRead).toBe(
      mine.length,
    );
    expect((await s.gql(Q, {}, bearer(t.p3))).data.myNotifications).toEqual([]);
  });

  it('delivery marks sent, retries failures, and gives up after five attempts', async () => {
    const p = s.t.db.prisma;
    const failing: NotificationSender = {
      send: async () => {
        throw new Error('push provider down');
      },
    };
    const pending = await p.notification.count({ where: { status: 'PENDING' } });
    for (let i = 0; i < 5; i++) expect((await deliverPending(p, failing, 10_000)).failed).toBe(pending);
    expect(
      await p.notification.count({ where: { status: 'FAILED', attempts: 5, lastError: 'push provider down' } }),
    ).toBe(pending);
    await p.notification.updateMany({ data: { status: 'PENDING', attempts: 0 } });
    const tick = await notificationsTick(p, silent);
    expect(tick.sent).toBe(pending);
    expect(await p.notification.count({ where: { status: 'SENT' } })).toBe(pending);
  });
});

describe('internal rankings', () => {
  it('create, invite, accept or reject with notifications, a members-only ranking, leave', async () => {
    const created = await s.gql(
      'mutation($t: Int!) { createInternalRanking(tournamentId: $t, name: "Lunch table") { id name members { id } } }',
      { t: ids.tournament },
      bearer(t.p1),
    );
    expect(created.errors).toBeUndefined();
    const rankingId = created.data.createInternalRanking.id;
    const invite = (userId: number, token = t.p1) =>
      s.gql(
        'mutation($r: Int!, $u: Int!) { inviteToInternalRanking(rankingId: $r, userId: $u) { id status } }',
        { r: rankingId, u: userId },
        bearer(token),
      );
    const inv2 = (await invite(ids.p2)).data.inviteToInternalRanking;
    const inv3 = (await invite(ids.p3)).data.inviteToInternalRanking;
    expect((await invite(ids.p3, t.p2)).errors?.[0].extensions.code).toBe('FORBIDDEN'); // only the owner invites
    expect(await notes(ids.p3, 'internalRankingInvitationReceived')).toHaveLength(1);
    const respond = (id: number, accept: boolean, token: string) =>
      s.gql(
        'mutation($i: Int!, $a: Boolean!) { respondToInternalRankingInvitation(invitationId: $i, accept: $a) { ' +
          'status } }',
        { i: id, a: accept },
        bearer(token),
      );
    expect((await respond(inv3.id, true, t.p3)).data.respondToInternalRankingInvitation.status).toBe('ACCEPTED');
    expect((await respond(inv2.id, false, t.p2)).data.respondToInternalRankingInvitation.status).toBe('REJECTED');
    expect((await respond(inv3.id, true, t.p3)).errors?.[0].extensions.code).toBe('CONFLICT');
    expect(await notes(ids.p1, 'internalRankingInvitationAccepted')).toHaveLength(1);
    expect(await notes(ids.p1, 'internalRankingInvitationRejected')).toHaveLength(1);

    const RANK =
      'query($t: Int!, $r: Int) { ranking(tournamentId: $t, internalRankingId: $r) { total entries { user { id } } ' +
      'me { position } } }';
    const league = await s.gql(RANK, { t: ids.tournament, r: rankingId }, bearer(t.p3));
    expect(league.data.ranking.total).toBe(2);
    expect(new Set(league.data.ranking.entries.map((e: { user: { id: number } }) => e.user.id))).toEqual(
      new Set([ids.p1, ids.p3]),
    );
    expect((await s.gql(RANK, { t: ids.tournament, r: rankingId }, bearer(t.p2))).errors?.[0].extensions.code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await s.gql('mutation($r: Int!) { leaveInternalRanking(rankingId: $r) }', { r: rankingId }, bearer(t.p3))).data
        .leaveInternalRanking,
    ).toBe(true);
    expect((await s.gql(RANK, { t: ids.tournament, r: rankingId }, bearer(t.p1))).data.ranking.total).toBe(1);
  });
});
