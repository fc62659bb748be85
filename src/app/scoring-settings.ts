// A company's game rules, changed by whoever administers it (its admins, its reseller, managers). A change that
// scores differently rescores every decided prediction of the company, and its standings, in the same
// transaction, or, past RESCORE_IN_REQUEST_MAX_PREDICTIONS of them, by a job per decided match committed with the
// change (src/game/rescore-jobs.ts); once a match of its tournaments has kicked off, it must be confirmed.
import type { Tx } from '../db/client.ts';
import type { CompanyRow } from '../db/rows.ts';
import { badInput, conflict } from '../domain/errors.ts';
import { decidedMatchesOf, rescoreMatches } from '../game/rescore.ts';
import { queueRescore, rescoreStatusOf, type RescoreStatus } from '../game/rescore-jobs.ts';
import { recountForCompany } from '../game/round-wins.ts';
import {
  mergeSettings,
  readScoringSettings,
  sameScoring,
  shownSettings,
  settingsProblem,
  type ScoringSettingsInput,
} from '../domain/scoring-settings.ts';
import { recordAudit } from './audit.ts';
import { administered } from './company-admin.ts';
import type { RequestScope } from './scope.ts';

export interface ScoringSettingsUpdate {
  company: CompanyRow;
  scoringSettings: ReturnType<typeof shownSettings>;
  rescoredPredictions: number;
  rescoreJobsQueued: number;
}

/** The tournaments a company plays: those it entered and its own custom ones. */
const playedBy = (companyId: number) => ({
  OR: [{ companies: { some: { companyId } } }, { ownerCompanyId: companyId }],
});

export async function updateScoringSettings(
  scope: RequestScope,
  companyId: number,
  input: ScoringSettingsInput,
  confirm: boolean,
): Promise<ScoringSettingsUpdate> {
  const { viewer } = scope.requireRole('admin', "only admins, resellers and managers change a company's game rules");
  const company = await administered(scope, viewer, companyId);
  // Multipliers name rounds of the company's tournaments; other changes need no rounds.
  const rounds =
    input.roundMultipliers == null
      ? []
      : await scope.db.round.findMany({ where: { tournament: playedBy(company.id) }, select: { id: true } });
  const problem = settingsProblem(input, new Set(rounds.map((r) => r.id)));
  if (problem) throw badInput(problem.message, problem.argument);

  const result = await scope.write(async (tx) => {
    // Read again inside the transaction: two changes at once both apply, the second over the first.
    const current = await tx.company.findUniqueOrThrow({ where: { id: company.id } });
    const before = readScoringSettings(current.scoringSettings);
    const after = mergeSettings(current.scoringSettings, input);
    const kickedOff = await tx.match.findFirst({
      where: { tournament: playedBy(company.id), date: { lte: scope.now } },
      orderBy: { date: 'asc' },
      select: { date: true },
    });
    if (kickedOff && !confirm && JSON.stringify(before) !== JSON.stringify(after)) {
      throw conflict(
        `the game has started (first kickoff ${kickedOff.date.toISOString()}): changing its rules rescores ` +
          'predictions already scored; repeat with confirm: true',
        'confirm',
      );
    }
    const row = await tx.company.update({
      where: { id: company.id },
      data: { scoringSettings: JSON.parse(JSON.stringify(after)) },
    });
    // Round wins are kept under ROUND_WINS only: switched to it, the company's are counted first, so a rescoring
    // below (or a job) moves them from what they are.
    if (after.tieRule === 'ROUND_WINS' && before.tieRule !== 'ROUND_WINS') await recountForCompany(tx, company.id);
    // Tie rules and who is ranked move the ranking without rescoring anything.
    const moved = JSON.stringify(before) !== JSON.stringify(after);
    const { rescored, queued } = sameScoring(before, after)
      ? { rescored: 0, queued: 0 }
      : await rescoreOrQueue(scope, tx, company.id);
    const shown = shownSettings(after);
    if (moved) {
      const change = { before: shownSettings(before), after: shown };
      await recordAudit(tx, scope.now, {
        kind: 'SCORING_SETTINGS_CHANGED',
        companyId: company.id,
        actorId: viewer.id,
        ...change,
      });
    }
    return { company: row, scoringSettings: shown, rescoredPredictions: rescored, rescoreJobsQueued: queued, moved };
  });
  if (result.rescoreJobsQueued > 0) scope.rescoring.wake();
  if (result.moved) {
    const played = await scope.db.tournament.findMany({ where: playedBy(company.id), select: { id: true } });
    for (const { id } of played) scope.live.publish({ kind: 'ranking', tournamentId: id, companyId: company.id });
  }
  const { moved: _moved, ...outcome } = result;
  return outcome;
}

/**
 * The company's decided predictions rescored under its new rules in this transaction, or, past
 * RESCORE_IN_REQUEST_MAX_PREDICTIONS of them, a job per decided match (each rescores the whole match: the other
 * companies' predictions keep their points, so only this company's change).
 */
async function rescoreOrQueue(scope: RequestScope, tx: Tx, companyId: number) {
  const decided = await decidedMatchesOf(tx, companyId);
  if (decided.length === 0) return { rescored: 0, queued: 0 };
  const predictions = await tx.prediction.count({ where: { matchId: { in: decided }, user: { companyId } } });
  if (predictions <= scope.config.rescoreInRequestMaxPredictions)
    return { rescored: (await rescoreMatches(tx, decided, companyId)).predictions, queued: 0 };
  await queueRescore(tx, decided, scope.now, companyId);
  return { rescored: 0, queued: decided.length };
}

/**
 * How far the company's rescoring in jobs has got (a change of rules past RESCORE_IN_REQUEST_MAX_PREDICTIONS, a
 * result on a match with many predictions): for whoever may change its rules.
 */
export async function rescoreStatus(scope: RequestScope, companyId: number): Promise<RescoreStatus> {
  const { viewer } = scope.requireRole('admin', "only admins, resellers and managers follow a company's rescoring");
  const company = await administered(scope, viewer, companyId);
  return rescoreStatusOf(scope.db, company.id);
}
