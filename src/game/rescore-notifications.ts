// "rankingsUpdated" for every player whose prediction a rescoring scored anew, written by one INSERT per match
// instead of a row through the process each. The outbox's rules hold (src/notifications/outbox.ts): nothing for a
// deleted user, a type the user disabled or the company forbids, an e-mail only where the user wants them, and a
// dedupe key that makes the trigger idempotent. The rules are read in JS from each distinct stored settings
// value (a company's players mostly share one or two), and the INSERT picks users by that value.
import type { Tx } from '../db/client.ts';
import type { MatchRow } from '../db/rows.ts';
import { Prisma } from '../db/sql.ts';
import { aliased, derived, Model, names, query, rowsOf, table } from '../db/typed-sql.ts';
import { companyNotificationSettings, userNotificationSettings } from '../domain/defaults.ts';
import type { KindChange } from '../domain/rescore-plan.ts';
import { kindsAndPredictions, KINDS_PER_STATEMENT, OF_KIND, predictor, type KeyedPrediction } from './rescore-sql.ts';

const TYPE = 'rankingsUpdated';

/** Before the predictions take their new scores (the INSERT finds them by the old ones). */
export async function notifyRankingsUpdated(
  tx: Tx,
  changes: KindChange[],
  matches: MatchRow[],
  companies: Array<{ id: number; notificationSettings: unknown }>,
): Promise<void> {
  const forbidden = new Set(
    companies
      .filter((c) => companyNotificationSettings(c.notificationSettings).forbiddenTypes.includes(TYPE))
      .map((c) => c.id),
  );
  const scored = changes.filter((c) => c.score.status !== 'PENDING' && !forbidden.has(c.kind.companyId));
  if (scored.length === 0) return;
  const { allowed, emailing } = await settingsThatAllow(tx, [...new Set(scored.map((c) => c.kind.companyId))]);
  if (allowed.length === 0) return;
  const now = new Date();
  for (const match of matches) {
    const ofMatch = scored.filter((c) => c.kind.matchId === match.id);
    const result = [
      match.status,
      match.homeTeamGoals,
      match.awayTeamGoals,
      match.homeTeamFullTimeGoals,
      match.awayTeamFullTimeGoals,
      match.penaltiesWinner,
    ].join('-');
    const notice: Notice = {
      dedupe: `${TYPE}:match:${match.id}:result:${result}:user:`,
      payload: JSON.stringify({ matchId: match.id, tournamentId: match.tournamentId }),
      allowed,
      emailing,
      now,
    };
    for (let i = 0; i < ofMatch.length; i += KINDS_PER_STATEMENT)
      await tx.$executeRaw(insertNotices(ofMatch.slice(i, i + KINDS_PER_STATEMENT), notice));
  }
}

/** One match's notification: its dedupe key but for the user's id, its payload, and whose settings get it. */
interface Notice {
  dedupe: string;
  payload: string;
  /** Stored settings values (as text) that allow the type, and of those, that want e-mail. */
  allowed: string[];
  emailing: string[];
  now: Date;
}

/** SQL: notifies the active players whose settings allow it of each prediction of these kinds. */
function insertNotices(kinds: KindChange[], { dedupe, payload, allowed, emailing, now }: Notice) {
  const user = Prisma.sql`, CAST(${predictor.c('notificationSettings')} AS TEXT) AS "settings",
    ${predictor.c('deletedAt')} AS "deletedAt"`;
  const pk = derived<KeyedPrediction & { settings: string; deletedAt: Date | null }>('pk');
  const sendEmail = emailing.length
    ? Prisma.sql`CASE WHEN ${pk.c('settings')} IN (${Prisma.join(emailing)}) THEN TRUE ELSE FALSE END`
    : Prisma.sql`FALSE`;
  const columns = names(
    Model.Notification,
    'companyId',
    'userId',
    'type',
    'payload',
    'dedupeKey',
    'sendEmail',
    'createdAt',
  );
  return Prisma.sql`
    WITH ${kindsAndPredictions(kinds, undefined, user)}
    INSERT INTO ${table(Model.Notification)} (${columns})
    SELECT ${pk.c('companyId')}, ${pk.c('userId')}, ${TYPE}, ${payload}, ${dedupe} || CAST(${pk.c('userId')} AS TEXT),
      ${sendEmail}, ${now}
    FROM pk JOIN v ON ${OF_KIND}
    WHERE ${pk.c('deletedAt')} IS NULL AND ${pk.c('settings')} IN (${Prisma.join(allowed)})
    ON CONFLICT (${names(Model.Notification, 'dedupeKey')}) DO NOTHING`;
}

/** The distinct stored settings values (as text) of these companies' active users. */
const settingsOf = query({ settings: 'string' }, (companyIds: number[]) => {
  const u = aliased(Model.User, 'u');
  return Prisma.sql`
    SELECT DISTINCT CAST(${u.c('notificationSettings')} AS TEXT) AS "settings" FROM ${u}
    WHERE ${u.c('companyId')} IN (${Prisma.join(companyIds)}) AND ${u.c('deletedAt')} IS NULL`;
});

/** The stored settings values (as text) of these companies' active users that allow the type, and want e-mail. */
async function settingsThatAllow(tx: Tx, companyIds: number[]) {
  const rows = await rowsOf(tx, settingsOf, companyIds);
  const allowed: string[] = [];
  const emailing: string[] = [];
  for (const { settings } of rows) {
    const read = userNotificationSettings(parse(settings));
    if (read.disabledTypes.includes(TYPE)) continue;
    allowed.push(settings);
    if (read.emailEnabled) emailing.push(settings);
  }
  return { allowed, emailing };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const rescoreNotificationSql = { insertNotices, settingsOf };
