// Time-based triggers, run by the notifications tick: one digest per person of the matches they have not predicted
// whose predictions close soon, and dream finals closing within 48 hours that users have not picked.
import type { Db, Tx } from '../db/client.ts';
import { companyNotificationSettings, REMINDER_HOURS, userNotificationSettings } from '../domain/defaults.ts';
import { dueForReminder, reminderHours } from '../domain/notification-settings.ts';
import { closingTime } from '../domain/predictions.ts';
import { LIMITS, readScoringSettings } from '../domain/scoring-settings.ts';
import { enqueue, type NotificationDraft } from './outbox.ts';

const HOUR = 3600e3;
const TYPE = 'pendingMatchesPredictions';
/** Users read, and digests written, this many at a time. */
const USER_BATCH = 500;

/** Company ids taking part in (or owning) each tournament. */
async function participants(prisma: Db, tournamentIds: number[]): Promise<Map<number, number[]>> {
  const [links, owned] = await Promise.all([
    prisma.companyTournament.findMany({ where: { tournamentId: { in: tournamentIds } } }),
    prisma.tournament.findMany({
      where: { id: { in: tournamentIds }, ownerCompanyId: { not: null } },
      select: { id: true, ownerCompanyId: true },
    }),
  ]);
  const map = new Map<number, number[]>(tournamentIds.map((id) => [id, []]));
  for (const l of links) map.get(l.tournamentId)!.push(l.companyId);
  for (const t of owned) map.get(t.id)!.push(t.ownerCompanyId!);
  return map;
}

interface OpenMatch {
  id: number;
  tournamentId: number;
  date: Date;
  homeTeam: { name: string };
  awayTeam: { name: string };
}

/** A match in one company's reminders: its predictions close at `closesAt` (kickoff less the company's deadline). */
interface Candidate {
  match: OpenMatch;
  closesAt: Date;
}

/**
 * pendingMatchesPredictions: for each person, one notification listing the matches they have not predicted whose
 * predictions close (the company's deadline, not kickoff) within their reminderHoursBefore (else the company's,
 * else 24). A match is named once per person and closing time (PredictionReminder), so a rescheduled match is
 * reminded again and a closed one never. Returns the notifications enqueued.
 */
export async function pendingPredictionsTrigger(prisma: Db, now: Date): Promise<number> {
  // The furthest a reminder reaches: the longest reminder window plus the longest deadline before kickoff.
  const horizon = new Date(now.getTime() + REMINDER_HOURS.max * HOUR + LIMITS.deadlineMinutes * 60e3);
  const matches: OpenMatch[] = await prisma.match.findMany({
    where: { date: { gt: now, lte: horizon }, status: { in: ['SCHEDULED', 'TIMED'] } },
    select: { id: true, tournamentId: true, date: true, homeTeam: true, awayTeam: true },
    orderBy: [{ date: 'asc' }, { id: 'asc' }],
  });
  if (matches.length === 0) return 0;
  const byTournament = await participants(prisma, [...new Set(matches.map((m) => m.tournamentId))]);
  const companyIds = [...new Set([...byTournament.values()].flat())];
  const companies = await prisma.company.findMany({
    where: { id: { in: companyIds }, deletedAt: null },
    select: { id: true, scoringSettings: true, notificationSettings: true },
  });
  let enqueued = 0;
  for (const company of companies) {
    const settings = companyNotificationSettings(company.notificationSettings);
    if (settings.forbiddenTypes.includes(TYPE)) continue;
    const deadline = readScoringSettings(company.scoringSettings).predictionDeadlineMinutes;
    const candidates = matches
      .filter((m) => byTournament.get(m.tournamentId)?.includes(company.id))
      .map((match) => ({ match, closesAt: closingTime(match, deadline) }))
      .filter((c) => dueForReminder(c.closesAt, now, REMINDER_HOURS.max))
      .sort((a, b) => a.closesAt.getTime() - b.closesAt.getTime() || a.match.id - b.match.id);
    if (candidates.length === 0) continue;
    enqueued += await remindCompany(prisma, company.id, settings, candidates, now);
  }
  return enqueued;
}

/** The digests of one company's people, a batch of people at a time, each batch in one transaction. */
async function remindCompany(
  prisma: Db,
  companyId: number,
  settings: { reminderHoursBefore: number },
  candidates: Candidate[],
  now: Date,
): Promise<number> {
  let enqueued = 0;
  let afterId = 0;
  for (;;) {
    const users = await prisma.user.findMany({
      where: {
        companyId,
        deletedAt: null,
        id: { gt: afterId },
        // In the database (NOT EXISTS): only people with a match closing soon that they neither predicted nor were
        // reminded of at its closing time, not every person of the company each tick.
        OR: candidates.map((c) => ({
          predictions: { none: { matchId: c.match.id } },
          predictionReminders: { none: { matchId: c.match.id, closesAt: c.closesAt } },
        })),
      },
      select: { id: true, notificationSettings: true },
      orderBy: { id: 'asc' },
      take: USER_BATCH,
    });
    if (users.length === 0) return enqueued;
    afterId = users[users.length - 1].id;
    const due = new Map<number, Candidate[]>();
    for (const u of users) {
      const own = userNotificationSettings(u.notificationSettings);
      if (own.disabledTypes.includes(TYPE)) continue;
      const hours = reminderHours(own, settings);
      const mine = candidates.filter((c) => dueForReminder(c.closesAt, now, hours));
      if (mine.length) due.set(u.id, mine);
    }
    if (due.size) enqueued += await prisma.$transaction((tx) => writeDigests(tx, due));
  }
}

/** Leaves out what each person predicted or was reminded of at this closing time; records and enqueues the rest. */
async function writeDigests(tx: Tx, due: Map<number, Candidate[]>): Promise<number> {
  const userIds = [...due.keys()];
  const matchIds = [...new Set([...due.values()].flat().map((c) => c.match.id))];
  const [predicted, reminded] = await Promise.all([
    tx.prediction.findMany({
      where: { userId: { in: userIds }, matchId: { in: matchIds } },
      select: { userId: true, matchId: true },
    }),
    tx.predictionReminder.findMany({
      where: { userId: { in: userIds }, matchId: { in: matchIds } },
      select: { userId: true, matchId: true, closesAt: true },
    }),
  ]);
  const skip = new Set([
    ...predicted.map((p) => `${p.userId}:${p.matchId}`),
    ...reminded.map((r) => `${r.userId}:${r.matchId}:${r.closesAt.getTime()}`),
  ]);
  const drafts: NotificationDraft[] = [];
  const records: Array<{ userId: number; matchId: number; closesAt: Date }> = [];
  for (const [userId, list] of due) {
    const fresh = list.filter(
      (c) => !skip.has(`${userId}:${c.match.id}`) && !skip.has(`${userId}:${c.match.id}:${c.closesAt.getTime()}`),
    );
    if (fresh.length === 0) continue;
    records.push(...fresh.map((c) => ({ userId, matchId: c.match.id, closesAt: c.closesAt })));
    drafts.push(digest(userId, fresh));
  }
  if (records.length === 0) return 0;
  await tx.predictionReminder.createMany({ data: records });
  await tx.match.updateMany({
    where: { id: { in: [...new Set(records.map((r) => r.matchId))] } },
    data: { alreadySentOpenNotification: true },
  });
  return enqueue(tx, drafts);
}

/**
 * One person's digest. The first match (the one closing first) also fills the single-match fields a reader of one
 * reminder knows (matchId, kickoff, teams); the dedupe key names it with its closing time, which no earlier digest
 * of the person named.
 */
function digest(userId: number, list: Candidate[]): NotificationDraft {
  const first = list[0];
  return {
    userId,
    type: TYPE,
    dedupeKey: `${TYPE}:match:${first.match.id}:closes:${first.closesAt.getTime()}:user:${userId}`,
    payload: {
      matchId: first.match.id,
      kickoff: first.match.date.toISOString(),
      closesAt: first.closesAt.toISOString(),
      homeTeam: first.match.homeTeam.name,
      awayTeam: first.match.awayTeam.name,
      count: list.length,
      matches: list.map((c) => ({
        matchId: c.match.id,
        kickoff: c.match.date.toISOString(),
        closesAt: c.closesAt.toISOString(),
        homeTeam: c.match.homeTeam.name,
        awayTeam: c.match.awayTeam.name,
      })),
    },
  };
}

export async function pendingDreamFinalsTrigger(prisma: Db, now: Date): Promise<number> {
  const settings = await prisma.dreamFinalsSetting.findMany({
    where: { isEnabled: true, limitRound: { date: { gt: now, lte: new Date(now.getTime() + 48 * HOUR) } } },
    include: { limitRound: true },
  });
  let enqueued = 0;
  for (const setting of settings) {
    const users = await prisma.user.findMany({
      where: { companyId: setting.companyId, deletedAt: null, dreamFinalPicks: { none: { settingId: setting.id } } },
      select: { id: true },
    });
    enqueued += await enqueue(
      prisma,
      users.map((u) => ({
        userId: u.id,
        type: 'pendingDreamFinalPrediction',
        dedupeKey: `pendingDreamFinalPrediction:setting:${setting.id}:user:${u.id}`,
        payload: { settingId: setting.id, closesAt: setting.limitRound.date.toISOString() },
      })),
    );
  }
  return enqueued;
}
