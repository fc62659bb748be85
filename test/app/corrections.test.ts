// Corrections and the audit trail (src/app/corrections.ts, src/app/audit.ts) on a request scope, read back from the
// database: an admin enters a player's prediction after kickoff (scored at once, marked, audited, the player told),
// every privileged change leaves an entry in its own transaction, and auditLog pages them for the company only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/app/audit.ts';
import { updateCompany } from '../../src/app/company-admin.ts';
import { setPredictionFor } from '../../src/app/corrections.ts';
import { setMatchResult, upsertPrediction } from '../../src/app/game.ts';
import { deleteUser, setUserActive, updateUser } from '../../src/app/people.ts';
import { updateScoringSettings } from '../../src/app/scoring-settings.ts';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { readScoringSettings } from '../../src/domain/scoring-settings.ts';
import { appTestDatabase, customMatch, testScope, type AppTestDatabase } from '../helpers/scope.ts';

const HOUR = 3600_000;
let database: AppTestDatabase;
const code = (c: string, argumentName?: string) => ({
  extensions: { code: c, ...(argumentName ? { argumentName } : {}) },
});
const ids = () => ({
  demo: database.demo.companies.DEMO,
  player1: database.demo.users['player1@demo.test'],
  player2: database.demo.users['player2@demo.test'],
  admin: database.demo.users['admin@demo.test'],
});
const prisma = () => database.db.prisma;

beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

/** A Demo Corp custom match that kicked off two hours ago and finished 2-1. */
async function finishedMatch() {
  const match = await customMatch(database, ids().demo, new Date(Date.now() - 2 * HOUR));
  await setMatchResult(await testScope(database, 'admin'), {
    matchId: match.id,
    status: 'FINISHED',
    homeTeamGoals: 2,
    awayTeamGoals: 1,
  });
  return match;
}

/** The company's points for an exact score and for the right outcome, read from its settings as stored. */
async function demoPoints() {
  const company = await prisma().company.findUniqueOrThrow({ where: { id: ids().demo } });
  const rules = readScoringSettings(company.scoringSettings);
  return { exact: rules.exactScore, outcome: rules.outcome };
}

describe('setPredictionFor', () => {
  it('enters a missed prediction after kickoff: scored at once, marked, audited, and the player told', async () => {
    const match = await finishedMatch();
    const { player1, admin } = ids();
    const row = await setPredictionFor(
      await testScope(database, 'admin'),
      player1,
      { matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 1 },
      '  Sent by e-mail before kickoff, the form was down  ',
    );
    const { exact } = await demoPoints();
    expect(row).toMatchObject({ userId: player1, enteredById: admin, status: 'SCORED', exactHit: true, points: exact });

    // The standing is the sum of the player's points in the tournament, counted here from their predictions.
    const own = await prisma().prediction.findMany({
      where: { userId: player1, match: { tournamentId: match.tournamentId } },
    });
    const standing = await prisma().tournamentStanding.findFirstOrThrow({
      where: { userId: player1, tournamentId: match.tournamentId },
    });
    expect(standing.points).toBe(own.reduce((sum, p) => sum + (p.points ?? 0), 0));
    expect(standing.points).toBe(exact);

    const entries = await prisma().auditEntry.findMany({
      where: { targetUserId: player1, kind: 'PREDICTION_ENTERED' },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      companyId: ids().demo,
      actorId: admin,
      reason: 'Sent by e-mail before kickoff, the form was down',
      before: null,
      after: { matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 1, penaltiesWinner: null, isJoker: false },
    });
    const told = await prisma().notification.findMany({ where: { userId: player1, type: 'predictionEnteredForYou' } });
    expect(told).toHaveLength(1);
    expect(told[0].payload).toMatchObject({
      matchId: match.id,
      reason: 'Sent by e-mail before kickoff, the form was down',
    });
  });

  it('corrects a mistyped prediction: the entry keeps what it was, the points follow the correction', async () => {
    const match = await finishedMatch();
    const { player2 } = ids();
    await prisma().prediction.create({
      data: { userId: player2, matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 0 },
    });
    await setMatchResult(await testScope(database, 'admin'), {
      matchId: match.id,
      status: 'FINISHED',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
    });
    const missed = await prisma().prediction.findFirstOrThrow({ where: { userId: player2, matchId: match.id } });
    expect(missed.points).toBe(0);
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    const row = await setPredictionFor(
      reseller,
      player2,
      { matchId: match.id, homeTeamGoals: 3, awayTeamGoals: 1 },
      'Typo: 3-1',
    );
    const { outcome } = await demoPoints();
    expect(row).toMatchObject({ id: missed.id, homeTeamGoals: 3, status: 'SCORED', outcomeHit: true, points: outcome });
    const entry = await prisma().auditEntry.findFirstOrThrow({
      where: { targetUserId: player2 },
      orderBy: { id: 'desc' },
    });
    expect(entry).toMatchObject({
      actorId: database.demo.users['reseller@partners.test'],
      reason: 'Typo: 3-1',
      before: { matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 0 },
      after: { matchId: match.id, homeTeamGoals: 3, awayTeamGoals: 1 },
    });
  });

  it('a prediction the player changes again before kickoff is theirs: the mark goes', async () => {
    const match = await customMatch(database, ids().demo, new Date(Date.now() + 24 * HOUR));
    const { player1 } = ids();
    const admin = await testScope(database, 'admin');
    const entered = await setPredictionFor(
      admin,
      player1,
      { matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 0 },
      'Asked by phone',
    );
    expect(entered.enteredById).toBe(ids().admin);
    expect(entered.status).toBe('PENDING');
    const own = await upsertPrediction(await testScope(database, 'player'), {
      matchId: match.id,
      homeTeamGoals: 0,
      awayTeamGoals: 0,
    });
    expect(own).toMatchObject({ id: entered.id, enteredById: null, homeTeamGoals: 0 });
  });

  it('refuses without a reason, to players, for oneself, across companies, bad values: writes nothing', async () => {
    const match = await finishedMatch();
    const { player1, player2, admin } = ids();
    const input = { matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 1 };
    const adminScope = await testScope(database, 'admin');
    const entriesBefore = await prisma().auditEntry.count();
    const notesBefore = await prisma().notification.count();
    for (const reason of ['', '   ', 'x'.repeat(501)])
      await expect(setPredictionFor(adminScope, player1, input, reason)).rejects.toMatchObject(
        code('BAD_USER_INPUT', 'reason'),
      );
    await expect(
      setPredictionFor(await testScope(database, 'player'), player2, input, 'a favour'),
    ).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(setPredictionFor(adminScope, admin, input, 'my own')).rejects.toMatchObject(code('FORBIDDEN'));
    const globex = await testScope(database, 'globexAdmin');
    await expect(setPredictionFor(globex, player1, input, 'not mine')).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(
      setPredictionFor(adminScope, player1, { ...input, homeTeamGoals: 100 }, 'too many'),
    ).rejects.toMatchObject(code('BAD_USER_INPUT', 'homeTeamGoals'));
    await expect(
      setPredictionFor(adminScope, player1, { ...input, penaltiesWinner: 'home' }, 'no shoot-out here'),
    ).rejects.toMatchObject(code('BAD_USER_INPUT', 'penaltiesWinner'));
    expect(await prisma().prediction.count({ where: { matchId: match.id } })).toBe(0);
    expect(await prisma().auditEntry.count()).toBe(entriesBefore);
    expect(await prisma().notification.count()).toBe(notesBefore);
  });

  it('a company cannot forbid telling the player: forbiddenTypes refuses predictionEnteredForYou', async () => {
    const { demo } = ids();
    const notificationSettings = { forbiddenTypes: ['predictionEnteredForYou'] };
    await expect(
      updateCompany(await testScope(database, 'admin'), demo, { notificationSettings }),
    ).rejects.toMatchObject(code('BAD_USER_INPUT'));
    const company = await prisma().company.findUniqueOrThrow({ where: { id: demo } });
    expect(JSON.stringify(company.notificationSettings)).not.toContain('predictionEnteredForYou');
  });
});

/** Makes every audit entry insert fail, as a full disk or a constraint would, until `undo` runs. */
async function refuseAuditEntries(): Promise<() => Promise<unknown>> {
  const p = prisma();
  if (database.config.database.provider === 'postgresql') {
    await p.$executeRawUnsafe(
      'CREATE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS ' +
        "$$ BEGIN RAISE EXCEPTION 'audit refused'; END $$",
    );
    await p.$executeRawUnsafe(
      'CREATE TRIGGER audit_refused BEFORE INSERT ON "AuditEntry" FOR EACH ROW EXECUTE FUNCTION audit_refused()',
    );
    return async () => {
      await p.$executeRawUnsafe('DROP TRIGGER audit_refused ON "AuditEntry"');
      await p.$executeRawUnsafe('DROP FUNCTION audit_refused()');
    };
  }
  await p.$executeRawUnsafe(
    `CREATE TRIGGER audit_refused BEFORE INSERT ON "AuditEntry" BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
  );
  return () => p.$executeRawUnsafe('DROP TRIGGER audit_refused');
}

describe('the audit entry and its change share one transaction', () => {
  it('a change whose entry cannot be written does not happen', async () => {
    const { demo, player1 } = ids();
    const played = await customMatch(database, demo, new Date(Date.now() - HOUR));
    const person = await prisma().user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: demo,
        name: 'Temp Worker',
        email: 'temp@demo.test',
        externalId: 'temp',
        loginProviderId: 'temp@demo.test',
      },
    });
    const admin = await testScope(database, 'admin');
    const companyBefore = await prisma().company.findUniqueOrThrow({ where: { id: demo } });
    const undo = await refuseAuditEntries();
    try {
      await expect(
        setPredictionFor(admin, player1, { matchId: played.id, homeTeamGoals: 1, awayTeamGoals: 0 }, 'late'),
      ).rejects.toThrow();
      await expect(
        setMatchResult(admin, { matchId: played.id, status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 }),
      ).rejects.toThrow();
      await expect(updateScoringSettings(admin, demo, { exactScore: 77 }, true)).rejects.toThrow();
      await expect(updateCompany(admin, demo, { loginText: 'Never shown' })).rejects.toThrow();
      await expect(updateUser(admin, person.id, { role: 'admin' })).rejects.toThrow();
      await expect(setUserActive(admin, person.id, false)).rejects.toThrow();
      await expect(deleteUser(admin, person.id)).rejects.toThrow();
    } finally {
      await undo();
    }
    expect(await prisma().prediction.count({ where: { matchId: played.id } })).toBe(0);
    expect(await prisma().match.findUniqueOrThrow({ where: { id: played.id } })).toMatchObject({
      status: 'SCHEDULED',
      homeTeamGoals: null,
    });
    const companyAfter = await prisma().company.findUniqueOrThrow({ where: { id: demo } });
    expect(companyAfter.scoringSettings).toEqual(companyBefore.scoringSettings);
    expect(companyAfter.loginText).toBe(companyBefore.loginText);
    expect(await prisma().user.findUniqueOrThrow({ where: { id: person.id } })).toMatchObject({
      role: 'player',
      deletedAt: null,
      anonymizedAt: null,
      name: 'Temp Worker',
    });
    expect(
      await prisma().auditEntry.count({
        where: { OR: [{ targetUserId: person.id }, { targetUserId: player1, reason: 'late' }] },
      }),
    ).toBe(0);
  });

  it('a correction and a result at once both commit, and the points follow both', async () => {
    const { player1, player2 } = ids();
    const { exact } = await demoPoints();
    for (let i = 0; i < 5; i++) {
      const match = await customMatch(database, ids().demo, new Date(Date.now() - HOUR));
      await prisma().prediction.createMany({
        data: [
          { userId: player1, matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 3 },
          { userId: player2, matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 0 },
        ],
      });
      const [admin, referee] = [await testScope(database, 'admin'), await testScope(database, 'admin')];
      await Promise.all([
        setPredictionFor(admin, player1, { matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 1 }, 'late form'),
        setMatchResult(referee, { matchId: match.id, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 }),
      ]);
      const rows = await prisma().prediction.findMany({ where: { matchId: match.id }, orderBy: { userId: 'asc' } });
      const points = Object.fromEntries(rows.map((r) => [r.userId, r.points]));
      expect(points).toEqual({ [player1]: exact, [player2]: 0 });
      expect(await prisma().auditEntry.count({ where: { tournamentId: match.tournamentId } })).toBe(1);
    }
  });

  it('a refused change leaves no entry', async () => {
    const played = await customMatch(database, ids().demo, new Date(Date.now() - HOUR));
    const before = await prisma().auditEntry.count();
    // Refused inside the transaction, after the rescoring job check: a score for one side only.
    await expect(
      setMatchResult(await testScope(database, 'admin'), { matchId: played.id, status: 'FINISHED', homeTeamGoals: 1 }),
    ).rejects.toMatchObject(code('BAD_USER_INPUT'));
    expect(await prisma().auditEntry.count()).toBe(before);
  });
});

describe('auditLog', () => {
  it('lists every privileged change of the company, newest first, filtered and paged, without secrets', async () => {
    const { demo } = ids();
    const demoScope = await testScope(database, 'admin');
    const person = await prisma().user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: demo,
        name: 'Audited Person',
        email: 'audited@demo.test',
        externalId: 'audited',
        loginProviderId: 'audited@demo.test',
        passwordHash: 'scrypt$secret-hash',
      },
    });
    const before = (await auditLog(demoScope, { take: 100 })).total;
    const t0 = Date.now();
    const at = (ms: number) => ({ now: new Date(t0 + ms) });
    const admin = (ms: number) => testScope(database, 'admin', at(ms));

    const settings = readScoringSettings(
      (await prisma().company.findUniqueOrThrow({ where: { id: demo } })).scoringSettings,
    );
    await updateScoringSettings(await admin(1000), demo, { exactScore: settings.exactScore + 1 }, true);
    await updateCompany(await admin(2000), demo, { loginText: 'Audited welcome' });
    await updateUser(await admin(3000), person.id, { role: 'admin' });
    await setUserActive(await admin(4000), person.id, false);
    await setUserActive(await admin(5000), person.id, true);
    await deleteUser(await admin(6000), person.id);
    // A result of the global tournament Demo Corp plays, set by a manager: Demo Corp's log and Globex's show it.
    const global = database.demo.matches.final;
    await prisma().match.update({ where: { id: global }, data: { date: new Date(t0 - HOUR) } });
    const manager = await testScope(database, 'manager', { now: new Date(t0 + 7000), headers: { appPath: 'demo' } });
    await setMatchResult(manager, { matchId: global, status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 });

    const log = await auditLog(demoScope, { take: 7 });
    expect(log.total).toBe(before + 7);
    expect(log.entries.map((e) => e.kind)).toEqual([
      'RESULT_SET',
      'USER_DELETED',
      'USER_REACTIVATED',
      'USER_DEACTIVATED',
      'ROLE_CHANGED',
      'COMPANY_SETTINGS_CHANGED',
      'SCORING_SETTINGS_CHANGED',
    ]);
    const [result, deleted, , deactivated, role, company, scoring] = log.entries;
    expect(result).toMatchObject({
      companyId: null,
      tournamentId: database.demo.tournament,
      actorId: database.demo.users['manager@partners.test'],
      after: { matchId: global, status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 },
    });
    expect(result.before).toMatchObject({ matchId: global, homeTeamGoals: null });
    expect(deleted).toMatchObject({ targetUserId: person.id, before: null, after: null });
    expect(deactivated).toMatchObject({ before: { active: true }, after: { active: false } });
    expect(role).toMatchObject({ targetUserId: person.id, before: { role: 'player' }, after: { role: 'admin' } });
    expect(company).toMatchObject({ after: { loginText: 'Audited welcome' } });
    expect(scoring).toMatchObject({
      before: { exactScore: settings.exactScore },
      after: { exactScore: settings.exactScore + 1 },
    });
    expect(JSON.stringify(log)).not.toMatch(
      /secret-hash|passwordHash|recoverPasswordToken|skipLoginToken|Audited Person/,
    );

    // Filters and paging.
    const people = await auditLog(demoScope, { userId: person.id, take: 100 });
    expect(people.entries.map((e) => e.kind)).toEqual([
      'USER_DELETED',
      'USER_REACTIVATED',
      'USER_DEACTIVATED',
      'ROLE_CHANGED',
    ]);
    const roles = await auditLog(demoScope, { kind: 'ROLE_CHANGED', take: 100 });
    expect(roles.entries.every((e) => e.kind === 'ROLE_CHANGED')).toBe(true);
    const second = await auditLog(demoScope, { skip: 1, take: 1 });
    expect(second.entries.map((e) => e.id)).toEqual([log.entries[1].id]);
    await expect(auditLog(demoScope, { take: 101 })).rejects.toMatchObject(code('BAD_USER_INPUT', 'take'));
    await expect(auditLog(demoScope, { kind: 'EVERYTHING' })).rejects.toMatchObject(code('BAD_USER_INPUT', 'kind'));

    // Globex plays the global tournament: its result is there; Demo Corp's own changes are not.
    const globex = await auditLog(await testScope(database, 'globexAdmin'), { take: 100 });
    expect(globex.entries.some((e) => e.id === result.id)).toBe(true);
    expect(globex.entries.some((e) => e.companyId === demo)).toBe(false);
    // The company's reseller reads it as its admins do; players never.
    const reseller = await auditLog(await testScope(database, 'reseller', { headers: { appPath: 'demo' } }), {
      take: 7,
    });
    expect(reseller.entries.map((e) => e.id)).toEqual(log.entries.map((e) => e.id));
    await expect(auditLog(await testScope(database, 'player'), {})).rejects.toMatchObject(code('FORBIDDEN'));
  });
});
