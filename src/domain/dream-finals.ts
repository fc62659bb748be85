// Dream finals, pure: which team finished in which position, and what a user's picks earn.
// Positions come from the final (1: winner, 2: loser) and the match for third place (3: winner, 4: loser),
// once those are finished; a winner on penalties is the shoot-out's winner.

export interface DreamMatch {
  roundId: number;
  homeTeamId: number;
  awayTeamId: number;
  status: string;
  homeTeamGoals: number | null;
  awayTeamGoals: number | null;
  penaltiesWinner: 'home' | 'away' | null;
}

export interface DreamRound {
  id: number;
  name: string;
  position: number;
}

const FINAL = new Set(['FINISHED', 'AWARDED']);

function winnerAndLoser(m: DreamMatch): [number, number] | null {
  if (!FINAL.has(m.status) || m.homeTeamGoals == null || m.awayTeamGoals == null) return null;
  const homeWins =
    m.homeTeamGoals > m.awayTeamGoals || (m.homeTeamGoals === m.awayTeamGoals && m.penaltiesWinner === 'home');
  const awayWins =
    m.awayTeamGoals > m.homeTeamGoals || (m.homeTeamGoals === m.awayTeamGoals && m.penaltiesWinner === 'away');
  if (!homeWins && !awayWins) return null;
  return homeWins ? [m.homeTeamId, m.awayTeamId] : [m.awayTeamId, m.homeTeamId];
}

/** The round of the match for third place, if any. */
export const thirdPlaceRound = <R extends DreamRound>(rounds: R[]): R | undefined =>
  rounds.find((r) => /third/i.test(r.name));

/** The final's round: named so, else the last one that is not the match for third place. */
export function finalRound<R extends DreamRound>(rounds: R[]): R | undefined {
  const named = rounds.find((r) => /^finals?$/i.test(r.name.trim()));
  if (named) return named;
  const third = thirdPlaceRound(rounds);
  return rounds.filter((r) => r !== third).sort((a, b) => b.position - a.position)[0];
}

/** The rounds whose matches decide dream-final positions: the final's and the match for third place's. */
export function decidingRounds<R extends DreamRound>(rounds: R[]): R[] {
  return [finalRound(rounds), thirdPlaceRound(rounds)].filter((r): r is R => r !== undefined);
}

/** Position -> team id, for the positions already decided. */
export function finalStandings(rounds: DreamRound[], matches: DreamMatch[]): Map<number, number> {
  const standings = new Map<number, number>();
  const decide = (round: DreamRound | undefined, first: number) => {
    const match = round ? matches.find((m) => m.roundId === round.id) : undefined;
    const result = match ? winnerAndLoser(match) : null;
    if (result) {
      standings.set(first, result[0]);
      standings.set(first + 1, result[1]);
    }
  };
  decide(finalRound(rounds), 1);
  decide(thirdPlaceRound(rounds), 3);
  return standings;
}

/** Points of one pick: awardedPoints when right, 0 when wrong, null while its position is undecided. */
export function pickPoints(
  standings: Map<number, number>,
  position: number,
  teamId: number,
  awardedPoints: number,
): number | null {
  const actual = standings.get(position);
  if (actual === undefined) return null;
  return actual === teamId ? awardedPoints : 0;
}
