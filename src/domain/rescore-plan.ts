// What a rescoring writes, decided by the pure rules: predictions come grouped into kinds (everything scoring
// reads, plus the score stored now), each kind is scored once with scorePrediction, and a kind whose score moved
// becomes one row of the statements that rewrite its predictions, move their standings and notify their players.
// The SQL matches predictions to their kind by equality only: the rule stays here, in one place. Pure: no I/O.
import type { FirstLeg, MatchResult, Score, Side } from './scoring.ts';
import { scorePrediction } from './scoring.ts';
import { hundredths, type ScoringSettings } from './scoring-settings.ts';

/** Predictions of one match by one company's players that score alike: the same guess and the same stored score. */
export interface PredictionKind {
  companyId: number;
  matchId: number;
  homeTeamGoals: number;
  awayTeamGoals: number;
  penaltiesWinner: Side | null;
  isJoker: boolean;
  status: Score['status'];
  points: number | null;
  exactHit: boolean;
  outcomeHit: boolean;
  /** How many predictions are of this kind. */
  count: number;
}

export interface KindChange {
  kind: PredictionKind;
  score: Score;
  /** What the kind's predictions add to a standing now, less what they added before (SCORED ones count). */
  standing: { points: number; exactHits: number; outcomeHits: number };
}

const counted = (s: Pick<Score, 'status' | 'points' | 'exactHit' | 'outcomeHit'>) =>
  s.status === 'SCORED'
    ? { points: s.points ?? 0, exactHits: s.exactHit ? 1 : 0, outcomeHits: s.outcomeHit ? 1 : 0 }
    : { points: 0, exactHits: 0, outcomeHits: 0 };

/** The kinds whose stored score is not the one the rules give now, with that score. */
export function changedKinds(
  kinds: PredictionKind[],
  matches: Map<number, MatchResult>,
  rules: Map<number, ScoringSettings>,
  firstLegs: Map<number, FirstLeg>,
): KindChange[] {
  const changes: KindChange[] = [];
  for (const kind of kinds) {
    const score = scorePrediction(
      kind,
      matches.get(kind.matchId)!,
      rules.get(kind.companyId)!,
      firstLegs.get(kind.matchId),
    );
    if (
      kind.status === score.status &&
      kind.points === score.points &&
      kind.exactHit === score.exactHit &&
      kind.outcomeHit === score.outcomeHit
    )
      continue;
    const [now, before] = [counted(score), counted(kind)];
    changes.push({
      kind,
      score,
      standing: {
        points: hundredths(now.points - before.points),
        exactHits: now.exactHits - before.exactHits,
        outcomeHits: now.outcomeHits - before.outcomeHits,
      },
    });
  }
  return changes;
}
