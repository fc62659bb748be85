// Ranking order, pure, under the company's tie rule (scoringSettings.tieRule):
// - HITS (the default): points, then exact hits, then outcome hits; all three equal share a position.
// - POINTS: equal points share a position.
// - ROUND_WINS: points, then rounds won; both equal share a position.
// Within a shared position people are listed by name. The next position is skipped (1, 2, 2, 4), as SQL's RANK()
// numbers them. The database computes the same thing for large companies (ranking-query.ts); this function is
// the reference its tests compare against.
import type { TieRule } from './scoring-settings.ts';

export interface Standing {
  userId: number;
  name: string;
  points: number;
  exactHits: number;
  outcomeHits: number;
  /** Rounds the user won (most points of the round); counted only under ROUND_WINS. */
  roundWins?: number;
}

export interface RankedStanding extends Standing {
  position: number;
}

/** What a position is decided by. */
export type Score = Pick<Standing, 'points' | 'exactHits' | 'outcomeHits' | 'roundWins'>;

/** Under the tie rule, `a` and `b` share a position. */
export function tied(a: Score, b: Score, rule: TieRule = 'HITS'): boolean {
  if (a.points !== b.points) return false;
  if (rule === 'POINTS') return true;
  if (rule === 'ROUND_WINS') return (a.roundWins ?? 0) === (b.roundWins ?? 0);
  return a.exactHits === b.exactHits && a.outcomeHits === b.outcomeHits;
}

/** Ahead first: by the tie rule's keys, then by name. */
export function compareStandings(a: Standing, b: Standing, rule: TieRule = 'HITS'): number {
  const keys =
    rule === 'POINTS'
      ? b.points - a.points
      : rule === 'ROUND_WINS'
        ? b.points - a.points || (b.roundWins ?? 0) - (a.roundWins ?? 0)
        : b.points - a.points || b.exactHits - a.exactHits || b.outcomeHits - a.outcomeHits;
  return keys || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.userId - b.userId;
}

export function rankStandings(standings: Standing[], rule: TieRule = 'HITS'): RankedStanding[] {
  const sorted = [...standings].sort((a, b) => compareStandings(a, b, rule));
  const ranked: RankedStanding[] = [];
  sorted.forEach((s, i) => {
    const position = i > 0 && tied(sorted[i - 1], s, rule) ? ranked[i - 1].position : i + 1;
    ranked.push({ ...s, position });
  });
  return ranked;
}

/**
 * Rounds won per user: a round is won by whoever made the most points in it (more than 0); everyone level on
 * the most points wins it. `points` holds each user's points per round (users without points may be left out).
 */
export function roundWins(points: Array<{ userId: number; roundId: number; points: number }>): Map<number, number> {
  const best = new Map<number, number>();
  for (const p of points) best.set(p.roundId, Math.max(best.get(p.roundId) ?? 0, p.points));
  const wins = new Map<number, number>();
  for (const p of points) {
    if (p.points > 0 && p.points === best.get(p.roundId)) wins.set(p.userId, (wins.get(p.userId) ?? 0) + 1);
  }
  return wins;
}
