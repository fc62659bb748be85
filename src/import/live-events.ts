// What an import tells live subscribers: each match whose result changed, and the ranking when points moved.
import type { LiveEvent } from '../live/events.ts';
import type { ImportReport } from './import-tournament.ts';

export function importLiveEvents(report: ImportReport): LiveEvent[] {
  const { tournamentId } = report;
  const events: LiveEvent[] = report.changedResultMatchIds.map((matchId) => ({ kind: 'match', tournamentId, matchId }));
  if (report.rescoredPredictions > 0) events.push({ kind: 'ranking', tournamentId });
  return events;
}
