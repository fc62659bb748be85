// How the company the request acts on predicted a match, once others' predictions of it are visible: from kickoff,
// as Match.predictions shows them (src/loaders/registry.ts, visiblePredictionsByMatch). Every match of a response is
// counted in one batch (src/game/match-statistics.ts).
import { badInput } from '../domain/errors.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import {
  matchStatistics as countedStatistics,
  MAX_TOP_SCORES,
  type MatchStatistics,
} from '../game/match-statistics.ts';
import type { MatchRow } from '../db/rows.ts';
import type { RequestScope } from './scope.ts';

export { MAX_TOP_SCORES, type MatchStatistics };

/**
 * The match's statistics over the company's predictions; null before kickoff (nobody may learn how others
 * predicted a match still open) and without a company to act on.
 */
export async function matchStatistics(scope: RequestScope, match: MatchRow): Promise<MatchStatistics | null> {
  const acting = scope.acting;
  if (!acting || match.date.getTime() > scope.now.getTime()) return null;
  const { rankAdmins } = readScoringSettings(acting.tenant.scoringSettings);
  const loader = scope.loaders.computed('matchStatistics', (matchIds) =>
    countedStatistics(scope.db, { companyId: acting.tenant.id, rankAdmins }, matchIds),
  );
  return loader.load(match.id);
}

/** The `take` most predicted scores: 1 to MAX_TOP_SCORES. */
export function topScores(statistics: MatchStatistics, take: number): MatchStatistics['topScores'] {
  if (!Number.isInteger(take) || take < 1 || take > MAX_TOP_SCORES)
    throw badInput(`take must be 1 to ${MAX_TOP_SCORES}`, 'take');
  return statistics.topScores.slice(0, take);
}
