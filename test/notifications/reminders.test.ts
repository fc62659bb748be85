// Prediction reminders (pendingMatchesPredictions) built around the company's deadline: one digest per person and
// run, the matches they have not predicted whose predictions close within their reminderHoursBefore; the caller's
// own choices (updateNotificationSettings) and the company's default (updateCompany's notificationSettings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCompany } from '../../src/app/company-admin.ts';
import { updateNotificationSettings } from '../../src/app/notifications.ts';
import type { NotificationSettingsChange } from '../../src/domain/notification-settings.ts';
import { notificationEmail } from '../../src/notifications/email-text.ts';
import { pendingPredictionsTrigger } from '../../src/notifications/triggers.ts';
import { appTestDatabase, customMatch, testScope, type AppTestDatabase } from '../helpers/scope.ts';

const HOUR = 3600e3;
const MINUTE = 60e3;
let database: AppTestDatabase;
let demo: number;
let player1: number;
let player2: number;
/** Active people of the demo company: the ones a reminder may reach. */
let people: number[];

beforeAll(async () => {
  database = await appTestDatabase();
  const p = database.db.prisma;
  demo = database.demo.companies.DEMO;
  player1 = database.demo.users['player1@demo.test'];
  player2 = database.demo.users['player2@demo.test'];
  people = (await p.user.findMany({ where: { companyId: demo, deletedAt: null }, select: { id: true } })).map(
    (u) => u.id,
  );
  // Predictions close an hour before kickoff in the demo company.
  const company = await p.company.findUniqueOrThrow({ where: { id: demo } });
  await p.company.update({
    where: { id: demo },
    data: { scoringSettings: { ...(company.scoringSettings as object), predictionDeadlineMinutes: 60 } },
  });
});
afterAll(() => database.drop());

/** Each test plays in its own month, far from the seed's matches and from the other tests' (a reminder looks two
 * weeks ahead at most). */
const month = (n: number) => new Date(Date.UTC(2031, n, 1, 12));

const reminders = (userId?: number) =>
  database.db.prisma.notification.findMany({
    where: { type: 'pendingMatchesPredictions', ...(userId ? { userId } : {}) },
    orderBy: { id: 'asc' },
  });
/** The matches a reminder names: a digest's list, or the one match of a reminder without one. */
const matchIdsOf = (payload: unknown) => {
  const p = payload as { matchId?: number; matches?: Array<{ matchId: number }> };
  return p.matches ? p.matches.map((m) => m.matchId) : p.matchId ? [p.matchId] : [];
};
const remindedOf = async (matchId: number) => {
  const all = await reminders();
  return all.filter((n) => matchIdsOf(n.payload).includes(matchId)).map((n) => n.userId);
};

/** A match of a new tournament of the demo company at `kickoff`; predicted by `predictors`. */
async function match(kickoff: Date, predictors: number[] = []) {
  const m = await customMatch(database, demo, kickoff);
  for (const userId of predictors)
    await database.db.prisma.prediction.create({ data: { matchId: m.id, userId, homeTeamGoals: 1, awayTeamGoals: 1 } });
  return m;
}

describe('pendingMatchesPredictions: around the deadline', () => {
  it('reminds of a match by its closing time, not its kickoff, and never of a closed one', async () => {
    const now = month(0);
    // Kicks off in 24 h 30 min, closes in 23 h 30 min: due, although kickoff is beyond 24 hours.
    const due = await match(new Date(now.getTime() + 24 * HOUR + 30 * MINUTE), [player2]);
    // Kicks off in 30 minutes, closed 30 minutes ago: nobody may predict it any more.
    const closed = await match(new Date(now.getTime() + 30 * MINUTE));
    await pendingPredictionsTrigger(database.db.prisma, now);
    expect((await remindedOf(due.id)).sort()).toEqual(people.filter((id) => id !== player2).sort());
    expect(await remindedOf(closed.id)).toEqual([]);
    const note = (await reminders(player1)).find((n) => matchIdsOf(n.payload).includes(due.id))!;
    expect(note.payload).toMatchObject({
      matchId: due.id,
      kickoff: due.date.toISOString(),
      closesAt: new Date(due.date.getTime() - 60 * MINUTE).toISOString(),
      count: 1,
    });
    // A second run in the same period finds nothing new.
    expect(await pendingPredictionsTrigger(database.db.prisma, new Date(now.getTime() + 5 * MINUTE))).toBe(0);
  });

  it('sends one digest per person for ten open matches, listing only the ones they have not predicted', async () => {
    const now = month(1);
    const before = (await reminders()).length;
    const tenMatches: Array<{ id: number }> = [];
    for (let i = 0; i < 10; i++) tenMatches.push(await match(new Date(now.getTime() + (3 + i) * HOUR), []));
    await database.db.prisma.prediction.create({
      data: { matchId: tenMatches[4].id, userId: player2, homeTeamGoals: 0, awayTeamGoals: 0 },
    });
    const created = await pendingPredictionsTrigger(database.db.prisma, now);
    expect(created).toBe(people.length);
    const sent = (await reminders()).slice(before);
    expect(sent).toHaveLength(people.length);
    expect(new Set(sent.map((n) => n.userId)).size).toBe(people.length);
    const ids = tenMatches.map((m) => m.id);
    const of = (userId: number) => matchIdsOf(sent.find((n) => n.userId === userId)!.payload);
    expect(of(player1)).toEqual(ids); // the one closing first first
    expect(of(player2)).toEqual(ids.filter((id) => id !== tenMatches[4].id));
    // Its e-mail lists every match of the digest.
    const email = notificationEmail('pendingMatchesPredictions', sent.find((n) => n.userId === player1)!.payload, 'P');
    expect(email.subject).toBe('10 matches to predict before predictions close');
    expect(email.text.match(/predictions close at/g)).toHaveLength(10);
    expect(await pendingPredictionsTrigger(database.db.prisma, new Date(now.getTime() + HOUR))).toBe(0);
  });

  it('reminds again of a match rescheduled after its reminder, and alreadySentOpenNotification says so', async () => {
    const p = database.db.prisma;
    const now = month(2);
    const postponed = await match(new Date(now.getTime() + 5 * HOUR));
    await pendingPredictionsTrigger(p, now);
    expect((await remindedOf(postponed.id)).length).toBe(people.length);
    expect((await p.match.findUniqueOrThrow({ where: { id: postponed.id } })).alreadySentOpenNotification).toBe(true);
    // Postponed by three days: when its new closing time comes near, everyone who has not predicted hears again.
    const newKickoff = new Date(now.getTime() + 3 * 24 * HOUR + 5 * HOUR);
    await p.match.update({ where: { id: postponed.id }, data: { date: newKickoff } });
    await p.prediction.create({ data: { matchId: postponed.id, userId: player2, homeTeamGoals: 2, awayTeamGoals: 0 } });
    expect(await pendingPredictionsTrigger(p, new Date(now.getTime() + HOUR))).toBe(0); // not due yet
    await pendingPredictionsTrigger(p, new Date(now.getTime() + 3 * 24 * HOUR));
    const twice = (await remindedOf(postponed.id)).filter((id) => id === player1);
    expect(twice).toHaveLength(2);
    expect((await remindedOf(postponed.id)).filter((id) => id === player2)).toHaveLength(1);
  });

  it("honours the person's reminderHoursBefore over the company's, and the company's over 24 hours", async () => {
    const p = database.db.prisma;
    const now = month(3);
    const player = await testScope(database, 'player', { now });
    // player1: 2 hours; the company: 48 hours; everyone else follows the company.
    expect(await updateNotificationSettings(player, { reminderHoursBefore: 2 })).toEqual({
      disabledTypes: [],
      emailEnabled: true,
      reminderHoursBefore: 2,
    });
    const admin = await testScope(database, 'admin', { now });
    const updated = await updateCompany(admin, demo, { notificationSettings: { reminderHoursBefore: 48 } });
    expect(updated.notificationSettings).toMatchObject({ forbiddenTypes: [], reminderHoursBefore: 48 });
    // Closes in 40 hours: inside the company's 48, outside 24 and player1's 2.
    const far = await match(new Date(now.getTime() + 41 * HOUR));
    // Closes in 90 minutes: inside everyone's window.
    const near = await match(new Date(now.getTime() + 150 * MINUTE));
    await pendingPredictionsTrigger(p, now);
    const others = people.filter((id) => id !== player1).sort();
    expect((await remindedOf(far.id)).sort()).toEqual(others);
    expect((await remindedOf(near.id)).sort()).toEqual(people.slice().sort());
    // When far closes within two hours, player1 hears of it; nobody else again.
    await pendingPredictionsTrigger(p, new Date(now.getTime() + 39 * HOUR));
    expect((await remindedOf(far.id)).sort()).toEqual(people.slice().sort());
    // Back to the defaults for the tests after this one.
    await updateNotificationSettings(player, { reminderHoursBefore: null });
    await updateCompany(admin, demo, { notificationSettings: { reminderHoursBefore: 24 } });
  });

  it('leaves out who turned the type off and follows emailEnabled', async () => {
    const p = database.db.prisma;
    const now = month(4);
    await updateNotificationSettings(await testScope(database, 'player2'), {
      disabledTypes: ['pendingMatchesPredictions'],
    });
    await updateNotificationSettings(await testScope(database, 'player'), { emailEnabled: false });
    const m = await match(new Date(now.getTime() + 5 * HOUR));
    await pendingPredictionsTrigger(p, now);
    const reached = await remindedOf(m.id);
    expect(reached).not.toContain(player2);
    expect(reached).toContain(player1);
    const mine = (await reminders(player1)).find((n) => matchIdsOf(n.payload).includes(m.id))!;
    expect(mine.sendEmail).toBe(false);
    // A company that forbids the type: nobody of it.
    const admin = await testScope(database, 'admin');
    await updateCompany(admin, demo, { notificationSettings: { forbiddenTypes: ['pendingMatchesPredictions'] } });
    const later = await match(new Date(month(5).getTime() + 5 * HOUR));
    await pendingPredictionsTrigger(p, month(5));
    expect(await remindedOf(later.id)).toEqual([]);
    await updateCompany(admin, demo, { notificationSettings: { forbiddenTypes: [] } });
  });
});

describe('updateNotificationSettings', () => {
  it('changes only what is given, and refuses what is not a choice with BAD_USER_INPUT naming it', async () => {
    const scope = await testScope(database, 'player2');
    const before = await updateNotificationSettings(scope, {});
    expect(await updateNotificationSettings(scope, { reminderHoursBefore: 168 })).toEqual({
      ...before,
      reminderHoursBefore: 168,
    });
    for (const [change, argument] of [
      [{ reminderHoursBefore: 0 }, 'reminderHoursBefore'],
      [{ reminderHoursBefore: 169 }, 'reminderHoursBefore'],
      [{ reminderHoursBefore: 1.5 }, 'reminderHoursBefore'],
      [{ disabledTypes: ['everything'] }, 'disabledTypes'],
    ] as Array<[NotificationSettingsChange, string]>) {
      await expect(updateNotificationSettings(scope, change)).rejects.toMatchObject({
        extensions: { code: 'BAD_USER_INPUT', argumentName: argument },
      });
    }
    const stored = await database.db.prisma.user.findUniqueOrThrow({ where: { id: player2 } });
    expect(stored.notificationSettings).toMatchObject({ reminderHoursBefore: 168 });
    await expect(updateNotificationSettings(await testScope(database, null), {})).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it("refuses a company default outside 1 to 168 hours, and only the company's admins set it", async () => {
    const admin = await testScope(database, 'admin');
    await expect(
      updateCompany(admin, demo, { notificationSettings: { reminderHoursBefore: 500 } }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    const player = await testScope(database, 'player');
    await expect(
      updateCompany(player, demo, { notificationSettings: { reminderHoursBefore: 12 } }),
    ).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });
});

describe('pendingMatchesPredictions: what a tick reads', () => {
  it('reads only the people who have a match to be reminded of, not every person of the company', async () => {
    const now = month(6);
    // Everyone but player1 predicted it: a tick has one person to remind.
    const m = await match(
      new Date(now.getTime() + 3 * HOUR),
      people.filter((id) => id !== player1),
    );
    const usersRead: number[] = [];
    const counted = database.db.prisma.$extends({
      query: {
        user: {
          async findMany({ args, query }) {
            const rows = await query(args);
            usersRead.push(...rows.map((r) => r.id!));
            return rows;
          },
        },
      },
    }) as unknown as typeof database.db.prisma;
    expect(await pendingPredictionsTrigger(counted, now)).toBe(1);
    expect(await remindedOf(m.id)).toEqual([player1]);
    // Delivery reads the one person reminded too (their e-mail settings): nobody else is read.
    expect([...new Set(usersRead)]).toEqual([player1]);
    // Reminded: the next tick reads nobody.
    usersRead.length = 0;
    expect(await pendingPredictionsTrigger(counted, new Date(now.getTime() + 5 * MINUTE))).toBe(0);
    expect(usersRead).toEqual([]);
  });
});
