// "rankingsUpdated" for every player whose prediction a rescoring scored anew, written by one INSERT per match
// instead of a row through the process each. The outbox's rules hold (src/notifications/outbox.ts): nothing for a
// deleted user, a type the user disabled or the company forbids, an e-mail only where the user wants them, and a
// dedupe key that makes the trigger idempotent. The rules are read in JS from each distinct stored settings
// value (a company's players mostly share one or two), and the INSERT picks users by that value.
import type { Tx } from '../db/client.ts';
import type { MatchRow } from '../db/rows.ts';
import { Prisma } from '../db/sql.ts';
import { companyNotificationSettings, userNotificationSettings } from '../domain/defaults.ts';
import type { KindChange } from '../domain/rescore-plan.ts';
import { kindsAndPredictions, KINDS_PER_STATEMENT, OF_KIND } from './rescore-sql.ts';

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
  const user = Prisma.sql`, CAST(u."notificationSettings" AS TEXT) AS "settings", u."deletedAt" AS "deletedAt"`;
  const sendEmail = emailing.length
    ? Prisma.sql`CASE WHEN pk."settings" IN (${Prisma.join(emailing)}) THEN TRUE ELSE FALSE END`
    : Prisma.sql`FALSE`;
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
    const dedupe = `${TYPE}:match:${match.id}:result:${result}:user:`;
    const payload = JSON.stringify({ matchId: match.id, tournamentId: match.tournamentId });
    for (let i = 0; i < ofMatch.length; i += KINDS_PER_STATEMENT) {
      const chunk = ofMatch.slice(i, i + KINDS_PER_STATEMENT);
      await tx.$executeRaw`
        WITH ${kindsAndPredictions(chunk, undefined, user)}
        INSERT INTO "Notification" ("companyId", "userId", "type", "payload", "dedupeKey", "sendEmail", "createdAt")
        SELECT pk."companyId", pk."userId", ${TYPE}, ${payload}, ${dedupe} || CAST(pk."userId" AS TEXT), ${sendEmail},
          ${now}
        FROM pk JOIN v ON ${OF_KIND}
        WHERE pk."deletedAt" IS NULL AND pk."settings" IN (${Prisma.join(allowed)})
        ON CONFLICT ("dedupeKey") DO NOTHING`;
    }
  }
}

/** The stored settings values (as text) of these companies' active users that allow the type, and want e-mail. */
async function settingsThatAllow(tx: Tx, companyIds: number[]) {
  const rows = await tx.$queryRaw<Array<{ settings: string }>>`
    SELECT DISTINCT CAST(u."notificationSettings" AS TEXT) AS "settings" FROM "User" u
    WHERE u."companyId" IN (${Prisma.join(companyIds)}) AND u."deletedAt" IS NULL`;
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
