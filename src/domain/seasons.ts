// A season's input, pure: a name, the tournaments ranked together and each one's weight. The operation
// (src/app/seasons.ts) passes in which tournaments the company plays.
import { badInput } from './errors.ts';

export const MAX_SEASON_TOURNAMENTS = 20;
export const MAX_SEASON_NAME = 100;
export const MAX_SEASON_WEIGHT = 100;

export interface SeasonTournamentInput {
  tournamentId: number;
  weight: number;
}

/** A season name: trimmed, 1 to 100 characters. */
export function seasonName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_SEASON_NAME)
    throw badInput(`name must have 1 to ${MAX_SEASON_NAME} characters`, 'name');
  return trimmed;
}

/** A weight: positive, at most 100, in hundredths (so a weighted sum of points kept in hundredths stays exact). */
function checkWeight(weight: number, index: number) {
  if (!Number.isFinite(weight) || weight <= 0 || weight > MAX_SEASON_WEIGHT)
    throw badInput(`weights[${index}] must be more than 0 and at most ${MAX_SEASON_WEIGHT}`, 'weights');
  if (Math.abs(Math.round(weight * 100) - weight * 100) > 1e-6)
    throw badInput(`weights[${index}] must be given in hundredths (e.g. 1.25)`, 'weights');
}

/**
 * The season's tournaments in the order given, each with its weight (1 where weights are left out). A tournament
 * listed twice counts once, and only with the same weight both times; each must be one the company plays.
 */
export function seasonTournaments(
  tournamentIds: number[],
  weights: number[] | null | undefined,
  playedByCompany: ReadonlySet<number>,
): SeasonTournamentInput[] {
  // Bounded before any work: a list longer than a season may hold is refused whatever it repeats.
  if (tournamentIds.length > MAX_SEASON_TOURNAMENTS * 5)
    throw badInput(`a season has at most ${MAX_SEASON_TOURNAMENTS} tournaments`, 'tournamentIds');
  if (weights != null && weights.length !== tournamentIds.length)
    throw badInput(`weights must have one weight per tournament (${tournamentIds.length})`, 'weights');
  const chosen = new Map<number, number>();
  tournamentIds.forEach((id, i) => {
    const weight = weights?.[i] ?? 1;
    checkWeight(weight, i);
    const earlier = chosen.get(id);
    if (earlier !== undefined && earlier !== weight)
      throw badInput(`tournament ${id} is listed twice with different weights`, 'weights');
    if (!playedByCompany.has(id)) throw badInput(`tournament ${id} is not played by this company`, 'tournamentIds');
    chosen.set(id, weight);
  });
  if (chosen.size === 0) throw badInput('a season has at least one tournament', 'tournamentIds');
  if (chosen.size > MAX_SEASON_TOURNAMENTS)
    throw badInput(`a season has at most ${MAX_SEASON_TOURNAMENTS} tournaments`, 'tournamentIds');
  return [...chosen].map(([tournamentId, weight]) => ({ tournamentId, weight }));
}
