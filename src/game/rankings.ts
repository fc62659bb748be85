// Ranking order, pure: points, then exact hits, then outcome hits (descending), then name (ascending).
// Equal points, exact hits and outcome hits share a position and the next position is skipped (1, 2, 2, 4),
// as SQL's RANK() numbers them. The database computes the same thing for large companies (ranking-query.ts);
// this function is the reference its tests compare against.

export interface Standing {
  userId: number;
  name: string;
  points: number;
  exactHits: number;
  outcomeHits: number;
}

export interface RankedStanding extends Standing {
  position: number;
}

/** What a position is decided by. */
export type Score = Pick<Standing, 'points' | 'exactHits' | 'outcomeHits'>;

/** Same points, exact hits and outcome hits: the same position. */
export const tied = (a: Score, b: Score) =>
  a.points === b.points && a.exactHits === b.exactHits && a.outcomeHits === b.outcomeHits;

export function compareStandings(a: Standing, b: Standing): number {
  return (
    b.points - a.points ||
    b.exactHits - a.exactHits ||
    b.outcomeHits - a.outcomeHits ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    a.userId - b.userId
  );
}

export function rankStandings(standings: Standing[]): RankedStanding[] {
  const sorted = [...standings].sort(compareStandings);
  return sorted
    .map((s, i) => ({ ...s, position: i > 0 && tied(sorted[i - 1], s) ? 0 : i + 1 }))
    .map((s, i, all) => {
      if (s.position === 0) {
        let j = i;
        while (all[j].position === 0) j--;
        return { ...s, position: all[j].position };
      }
      return s;
    });
}
