// A second leg's first leg: the same two teams the other way round, earlier in the same tournament. Its final
// score decides, with the second leg's, whether the tie went to a shoot-out and who went through.
import type { Tx } from '../db/client.ts';
import type { FirstLeg } from '../domain/scoring.ts';

const FINISHED = new Set(['FINISHED', 'AWARDED']);

interface Leg {
  id: number;
  tournamentId: number;
  date: Date;
  homeTeamId: number;
  awayTeamId: number;
  isTwoWaysSecondMatch: boolean | null;
}

/** Second leg id -> its first leg's final score, for the given matches' second legs whose first leg has one. */
export async function firstLegsOf(tx: Tx, matches: Leg[]): Promise<Map<number, FirstLeg>> {
  const seconds = matches.filter((m) => m.isTwoWaysSecondMatch);
  const found = new Map<number, FirstLeg>();
  if (seconds.length === 0) return found;
  const candidates = await tx.match.findMany({
    where: {
      tournamentId: { in: [...new Set(seconds.map((m) => m.tournamentId))] },
      isTwoWaysSecondMatch: { not: true },
      homeTeamId: { in: seconds.map((m) => m.awayTeamId) },
    },
    orderBy: { date: 'desc' },
  });
  for (const second of seconds) {
    const first = candidates.find(
      (c) =>
        c.tournamentId === second.tournamentId &&
        c.homeTeamId === second.awayTeamId &&
        c.awayTeamId === second.homeTeamId &&
        c.date < second.date,
    );
    if (first && first.homeTeamGoals != null && first.awayTeamGoals != null && FINISHED.has(first.status))
      found.set(second.id, { homeTeamGoals: first.homeTeamGoals, awayTeamGoals: first.awayTeamGoals });
  }
  return found;
}

/** The second legs these matches are the first legs of: a corrected first leg changes their aggregate. */
export async function secondLegsOf(tx: Tx, matches: Leg[]): Promise<number[]> {
  const firsts = matches.filter((m) => !m.isTwoWaysSecondMatch);
  if (firsts.length === 0) return [];
  const candidates = await tx.match.findMany({
    where: {
      tournamentId: { in: [...new Set(firsts.map((m) => m.tournamentId))] },
      isTwoWaysSecondMatch: true,
      homeTeamId: { in: firsts.map((m) => m.awayTeamId) },
    },
    select: { id: true, tournamentId: true, date: true, homeTeamId: true, awayTeamId: true },
  });
  return candidates
    .filter((c) =>
      firsts.some(
        (f) =>
          f.tournamentId === c.tournamentId &&
          f.homeTeamId === c.awayTeamId &&
          f.awayTeamId === c.homeTeamId &&
          f.date < c.date,
      ),
    )
    .map((c) => c.id);
}
