// "rankingsUpdated" for every player whose prediction a rescoring scored anew: one per player and tournament for
// the whole rescoring (a batch of jobs over 20 matches tells a player once, not 20 times), written by one INSERT per
// tournament instead of a row through the process each. The outbox's rules hold (src/notifications/outbox.ts):
// nothing for a deleted user, a type the user disabled or the company forbids, an e-mail only where the user wants
// them, and a dedupe key that makes the trigger idempotent: it names the matches' results, so the same rescoring run
// again adds nothing and a corrected result notifies again. The rules are read in JS from each distinct stored
// settings value (a company's players mostly share one or two), and the INSERT picks users by that value.
import { createHash } from 'node:crypto';
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
  const scoredMatches = new Set(scored.map((c) => c.kind.matchId));
  for (const tournamentId of new Set(matches.map((m) => m.tournamentId))) {
    const ofTournament = matches.filter((m) => m.tournamentId === tournamentId && scoredMatches.has(m.id));
    if (ofTournament.length === 0) continue;
    const ids = new Set(ofTournament.map((m) => m.id));
    const ofIt = scored.filter((c) => ids.has(c.kind.matchId));
    const notice: Notice = {
      dedupe: `${TYPE}:tournament:${tournamentId}:results:${resultsDigest(ofTournament)}:user:`,
      payload: JSON.stringify({ tournamentId, matchIds: [...ids].sort((a, b) => a - b) }),
      allowed,
      emailing,
      now,
    };
    // A player found again in a later chunk already has theirs: the dedupe key makes the second row nothing.
    for (let i = 0; i < ofIt.length; i += KINDS_PER_STATEMENT)
      await tx.$executeRaw(insertNotices(ofIt.slice(i, i + KINDS_PER_STATEMENT), notice));
  }
}

/** The matches' ids and results, digested: the same results make the same dedupe key, another result another. */
function resultsDigest(matches: MatchRow[]): string {
  const results = [...matches]
    .sort((a, b) => a.id - b.id)
    .map((m) =>
      [
        m.id,
        m.status,
        m.homeTeamGoals,
        m.awayTeamGoals,
        m.homeTeamFullTimeGoals,
        m.awayTeamFullTimeGoals,
        m.penaltiesWinner,
      ].join('-'),
    );
  return createHash('sha256').update(results.join(';')).digest('hex').slice(0, 32);
}

/** A tournament's notification: its dedupe key but for the user's id, its payload, and whose settings get it. */
interface Notice {
  dedupe: string;
  payload: string;
  /** Stored settings values (as text) that allow the type, and of those, that want e-mail. */
  allowed: string[];
  emailing: string[];
  now: Date;
}

/** SQL: notifies once each active player whose settings allow it and who has a prediction of these kinds. */
function insertNotices(kinds: KindChange[], { dedupe, payload, allowed, emailing, now }: Notice) {
  const user = Prisma.sql`, CAST(${predictor.c('notificationSettings')} AS TEXT) AS "settings",
    ${predictor.c('deletedAt')} AS "deletedAt"`;
  const pk = derived<KeyedPrediction & { settings: string; deletedAt: Date | null }>('pk');
  const scored = derived<{ companyId: number; userId: number; settings: string; deletedAt: Date | null }>('scored');
  const sendEmail = emailing.length
    ? Prisma.sql`CASE WHEN ${scored.c('settings')} IN (${Prisma.join(emailing)}) THEN TRUE ELSE FALSE END`
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
  // The players are found first and filtered after: with the filters on the join, PostgreSQL expected one row and
  // compared every prediction with every kind in a nested loop (50,000 by 1,000 for a batch's tournament).
  return Prisma.sql`
    WITH ${kindsAndPredictions(kinds, undefined, user)},
    scored AS MATERIALIZED (
      SELECT DISTINCT ${pk.c('companyId')} AS "companyId", ${pk.c('userId')} AS "userId",
        ${pk.c('settings')} AS "settings", ${pk.c('deletedAt')} AS "deletedAt"
      FROM pk JOIN v ON ${OF_KIND})
    INSERT INTO ${table(Model.Notification)} (${columns})
    SELECT ${scored.c('companyId')}, ${scored.c('userId')}, ${TYPE}, ${payload},
      ${dedupe} || CAST(${scored.c('userId')} AS TEXT), ${sendEmail}, ${now}
    FROM scored
    WHERE ${scored.c('deletedAt')} IS NULL AND ${scored.c('settings')} IN (${Prisma.join(allowed)})
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
