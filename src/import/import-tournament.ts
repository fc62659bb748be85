// Writes a parsed openfootball tournament, idempotently: every row is keyed by a stable externalId, a second
// run creates nothing twice and updates what changed. One transaction: a failure leaves nothing half-written.
// What people decided stays: each match remembers what the file last said about its kickoff and its result, and
// a date or result an operator set since (a postponement, a cancellation, a new date, a score entered by hand) is
// kept while the file still says what it said then. A file that says something new about it wins.
import { providerOfTx, type Db, type Tx } from '../db/client.ts';
import { lockRows } from '../db/row-locks.ts';
import type { MatchRow } from '../db/rows.ts';
import { Model } from '../db/typed-sql.ts';
import { rescoreMatches } from '../game/rescore.ts';
import { queueRescore } from '../game/rescore-jobs.ts';
import type { LiveEvent } from '../live/events.ts';
import type { ParsedMatch, ParsedTournament } from './openfootball.ts';

export interface ImportOptions {
  /** The tournament's stable id, e.g. "openfootball:2026-worldcup". */
  externalId: string;
  /** Country the tournament belongs to (default "World"). */
  countryName?: string;
  /** Companies that enter the tournament, in the same transaction (idempotent: one that plays it already does). */
  enterCompanyIds?: number[];
  /**
   * Past this many predictions on the matches whose result changed, their rescoring is left to rescoring jobs
   * committed with the import (src/game/rescore-jobs.ts) instead of done in its transaction
   * (RESCORE_IN_REQUEST_MAX_PREDICTIONS); without it, always in the transaction.
   */
  rescoreInTransactionMaxPredictions?: number;
  /**
   * The referee's rule: a result (a score, FINISHED) is taken only for a match whose kickoff has passed by `now`;
   * a match still ahead is imported as scheduled. true takes every result the file gives (a replay of a past
   * season, a test fixture): the CLI's --allow-future-results.
   */
  allowFutureResults?: boolean;
  /** The clock the referee's rule reads (default: the time of the import). */
  now?: Date;
  /** Called in the import's transaction for each match whose result it sets or changes (the audit trail's entry). */
  onResultChanged?: (tx: Tx, before: MatchRow | null, after: MatchRow) => Promise<void>;
}

export interface ImportReport {
  tournamentId: number;
  tournament: 'created' | 'updated' | 'unchanged';
  rounds: { created: number; updated: number };
  teams: { created: number };
  matches: { created: number; updated: number; unchanged: number };
  /** Matches whose score, penalties or status changed (their predictions were rescored). */
  changedResultMatchIds: number[];
  /** Predictions whose points changed (0 when the rescoring was left to jobs). */
  rescoredPredictions: number;
  /** Matches whose rescoring was left to rescoring jobs (0 when it was done in the import's transaction). */
  rescoreJobsQueued: number;
  /** Dates and results (status and score) set by hand that the file said nothing new about, so were kept. */
  keptDecisions: number;
  /** Results the file gave for matches whose kickoff is still ahead, left out (allowFutureResults turns it off). */
  futureResultsIgnored: number;
}

/** What an import tells live subscribers: each match whose result changed, and the ranking when points moved. */
export function importLiveEvents(report: ImportReport): LiveEvent[] {
  const { tournamentId } = report;
  const events: LiveEvent[] = report.changedResultMatchIds.map((matchId) => ({ kind: 'match', tournamentId, matchId }));
  if (report.rescoredPredictions > 0) events.push({ kind: 'ranking', tournamentId });
  return events;
}

const teamExternalId = (name: string) => `openfootball:team:${name}`;
const RESULT_FIELDS = [
  'homeTeamGoals',
  'awayTeamGoals',
  'homeTeamFullTimeGoals',
  'awayTeamFullTimeGoals',
  'homeTeamExtraTimeGoals',
  'awayTeamExtraTimeGoals',
  'homeTeamPenaltyGoals',
  'awayTeamPenaltyGoals',
  'penaltiesWinner',
  'status',
] as const;

type ResultFields = Record<(typeof RESULT_FIELDS)[number], unknown>;
/** A match's result as Match.importedResult remembers it: the result fields in a fixed order, as JSON. */
const resultMemory = (m: ResultFields) => JSON.stringify(RESULT_FIELDS.map((f) => m[f] ?? null));
// Matches imported before the importer remembered anything: openfootball only ever says SCHEDULED (no score) or
// FINISHED, so any other status was set by hand over a file that said "scheduled, no score".
const FILE_STATUSES = new Set(['SCHEDULED', 'FINISHED']);
/** A match with no result: scheduled, no score. */
const NO_RESULT = {
  status: 'SCHEDULED',
  homeTeamGoals: null,
  awayTeamGoals: null,
  homeTeamFullTimeGoals: null,
  awayTeamFullTimeGoals: null,
  homeTeamExtraTimeGoals: null,
  awayTeamExtraTimeGoals: null,
  homeTeamPenaltyGoals: null,
  awayTeamPenaltyGoals: null,
  penaltiesWinner: null,
} as const;
const SCHEDULED_MEMORY = resultMemory(NO_RESULT);

const sameTime = (a: Date, b: Date) => a.getTime() === b.getTime();

/** The match as the import takes it: without the result the file gives while its kickoff is still ahead. */
function resultTaken(m: ParsedMatch, now: Date, allowFuture: boolean): ParsedMatch {
  if (allowFuture || m.status !== 'FINISHED' || m.kickoff.getTime() <= now.getTime()) return m;
  return { ...m, ...NO_RESULT };
}

/**
 * A match's identity apart from its date, for the matches the file does not number (their key holds the kickoff):
 * within a group the same two teams meet once, elsewhere once per round. A date change in the file then updates
 * the match instead of adding a second one.
 */
const identityOf = (m: { group: string | null; roundId: number; homeTeamId: number; awayTeamId: number }) =>
  `${m.group !== null ? `group:${m.group}` : `round:${m.roundId}`}:${m.homeTeamId}:${m.awayTeamId}`;

function changedFields<T extends Record<string, unknown>>(existing: Record<string, unknown>, wanted: T): Partial<T> {
  const diff: Partial<T> = {};
  for (const [k, v] of Object.entries(wanted)) {
    const old = existing[k];
    const same = v instanceof Date && old instanceof Date ? sameTime(v, old) : v === old;
    if (!same) (diff as Record<string, unknown>)[k] = v;
  }
  return diff;
}

export async function importTournament(
  prisma: Db,
  parsed: ParsedTournament,
  options: ImportOptions,
): Promise<ImportReport> {
  return prisma.$transaction((tx) => write(tx, parsed, options), { timeout: 120_000, maxWait: 30_000 });
}

async function write(tx: Tx, parsed: ParsedTournament, options: ImportOptions): Promise<ImportReport> {
  const countryName = options.countryName ?? 'World';
  // Countries: the tournament's, and one per national team (named like the team).
  const countryNames = [...new Set([countryName, ...parsed.teams])];
  const knownCountries = await tx.country.findMany({ where: { name: { in: countryNames } } });
  const missingCountries = countryNames.filter((n) => !knownCountries.some((c) => c.name === n));
  if (missingCountries.length) await tx.country.createMany({ data: missingCountries.map((name) => ({ name })) });
  const countries = new Map(
    (await tx.country.findMany({ where: { name: { in: countryNames } } })).map((c) => [c.name, c.id]),
  );

  // Global teams.
  const teamIds = parsed.teams.map(teamExternalId);
  const knownTeams = new Set(
    (await tx.team.findMany({ where: { externalId: { in: teamIds } }, select: { externalId: true } })).map(
      (t) => t.externalId,
    ),
  );
  const newTeams = parsed.teams.filter((n) => !knownTeams.has(teamExternalId(n)));
  if (newTeams.length) {
    await tx.team.createMany({
      data: newTeams.map((name) => ({ name, externalId: teamExternalId(name), countryId: countries.get(name)! })),
    });
  }
  const teams = new Map(
    (await tx.team.findMany({ where: { externalId: { in: teamIds } } })).map((t) => [t.name, t.id]),
  );

  // The tournament.
  const anyKnockout = parsed.rounds.some((r) => r.hasPenalties);
  const tournamentData = {
    name: parsed.name,
    countryId: countries.get(countryName)!,
    hasPenalties: anyKnockout,
    importNewMatchesWithPenalties: anyKnockout,
  };
  const existingTournament = await tx.tournament.findUnique({ where: { externalId: options.externalId } });
  let tournamentState: ImportReport['tournament'] = 'unchanged';
  let tournamentId: number;
  if (!existingTournament) {
    tournamentId = (await tx.tournament.create({ data: { ...tournamentData, externalId: options.externalId } })).id;
    tournamentState = 'created';
  } else {
    tournamentId = existingTournament.id;
    // Before any of its matches is written, as every writer takes them (src/game/rescore-jobs.ts): a rescoring
    // run holding the tournament finishes first, instead of waiting for a match this import holds.
    await lockRows(tx, providerOfTx(tx), Model.Tournament, [tournamentId]);
    const diff = changedFields(existingTournament, tournamentData);
    if (Object.keys(diff).length) {
      await tx.tournament.update({ where: { id: tournamentId }, data: diff });
      tournamentState = 'updated';
    }
  }

  for (const companyId of options.enterCompanyIds ?? []) {
    await tx.companyTournament.upsert({
      where: { companyId_tournamentId: { companyId, tournamentId } },
      create: { companyId, tournamentId },
      update: {},
    });
  }

  // Rounds.
  const roundExternalId = (name: string) => `${options.externalId}:round:${name}`;
  const existingRounds = new Map(
    (await tx.round.findMany({ where: { tournamentId } })).filter((r) => r.externalId).map((r) => [r.externalId!, r]),
  );
  const rounds = { created: 0, updated: 0 };
  for (const r of parsed.rounds) {
    const data = { name: r.name, position: r.position, date: r.date, hasPenalties: r.hasPenalties };
    const existing = existingRounds.get(roundExternalId(r.name));
    if (!existing) {
      await tx.round.create({ data: { ...data, tournamentId, externalId: roundExternalId(r.name) } });
      rounds.created++;
    } else {
      const diff = changedFields(existing, data);
      if (Object.keys(diff).length) {
        await tx.round.update({ where: { id: existing.id }, data: diff });
        rounds.updated++;
      }
    }
  }
  const roundIds = new Map((await tx.round.findMany({ where: { tournamentId } })).map((r) => [r.externalId, r.id]));

  // Matches.
  const matchExternalId = (key: string) => `${options.externalId}:match:${key}`;
  const existingMatches = new Map(
    (await tx.match.findMany({ where: { tournamentId } })).filter((m) => m.externalId).map((m) => [m.externalId!, m]),
  );
  // Existing matches no key of the file names, by their identity apart from the date: one of them is a match whose
  // date the file changed.
  const keys = new Set(parsed.matches.map((m) => matchExternalId(m.key)));
  const unclaimed = new Map(
    [...existingMatches.values()].filter((m) => !keys.has(m.externalId!)).map((m) => [identityOf(m), m]),
  );
  const now = options.now ?? new Date();
  const matches = { created: 0, updated: 0, unchanged: 0 };
  const changedResultMatchIds: number[] = [];
  let keptDecisions = 0;
  let futureResultsIgnored = 0;
  const toCreate = [];
  for (const given of parsed.matches) {
    const m = resultTaken(given, now, options.allowFutureResults ?? false);
    if (m !== given) futureResultsIgnored++;
    const data = {
      roundId: roundIds.get(roundExternalId(m.roundName))!,
      date: m.kickoff,
      venue: m.venue,
      group: m.group,
      homeTeamId: teams.get(m.team1)!,
      awayTeamId: teams.get(m.team2)!,
      homeTeamGoals: m.homeTeamGoals,
      awayTeamGoals: m.awayTeamGoals,
      homeTeamFullTimeGoals: m.homeTeamFullTimeGoals,
      awayTeamFullTimeGoals: m.awayTeamFullTimeGoals,
      homeTeamExtraTimeGoals: m.homeTeamExtraTimeGoals,
      awayTeamExtraTimeGoals: m.awayTeamExtraTimeGoals,
      homeTeamPenaltyGoals: m.homeTeamPenaltyGoals,
      awayTeamPenaltyGoals: m.awayTeamPenaltyGoals,
      penaltiesWinner: m.penaltiesWinner,
      status: m.status,
      hasPenalties: m.group === null,
    };
    // What the file says now, remembered for the next import.
    const memory = { importedDate: m.kickoff, importedResult: resultMemory(data) };
    let existing = existingMatches.get(matchExternalId(m.key));
    if (!existing && !m.numbered) {
      existing = unclaimed.get(identityOf(data));
      // Known again under its new key, so the next import finds it by key.
      if (existing) {
        unclaimed.delete(identityOf(data));
        await tx.match.update({ where: { id: existing.id }, data: { externalId: matchExternalId(m.key) } });
      }
    }
    if (!existing) {
      toCreate.push({ ...data, ...memory, tournamentId, externalId: matchExternalId(m.key) });
      continue;
    }
    // An operator changed it since the last import (the row differs from what the file said then), and the file
    // still says what it said then: the operator's decision stands.
    const wanted: Partial<typeof data> = { ...data };
    const lastDate = existing.importedDate;
    if (lastDate && sameTime(m.kickoff, lastDate) && !sameTime(existing.date, lastDate)) {
      delete wanted.date;
      keptDecisions++;
    }
    const lastResult = existing.importedResult ?? (FILE_STATUSES.has(existing.status) ? null : SCHEDULED_MEMORY);
    // A new kickoff in the file is news about a postponed match too: it is scheduled again (as rescheduleMatch does).
    const rescheduled = existing.status === 'POSTPONED' && 'date' in wanted && !sameTime(existing.date, m.kickoff);
    if (lastResult === memory.importedResult && resultMemory(existing) !== lastResult && !rescheduled) {
      for (const f of RESULT_FIELDS) delete wanted[f];
      keptDecisions++;
    }
    const diff = changedFields(existing, wanted);
    const memoryDiff = changedFields(existing, memory);
    if (Object.keys(diff).length || Object.keys(memoryDiff).length)
      await tx.match.update({ where: { id: existing.id }, data: { ...diff, ...memoryDiff } });
    // Only what shows counts as updated; a refreshed memory alone (first import of this version) does not.
    if (!Object.keys(diff).length) {
      matches.unchanged++;
      continue;
    }
    matches.updated++;
    if (!RESULT_FIELDS.some((f) => f in diff)) continue;
    changedResultMatchIds.push(existing.id);
    await options.onResultChanged?.(tx, existing, { ...existing, ...diff });
  }
  if (toCreate.length) {
    await tx.match.createMany({ data: toCreate });
    matches.created = toCreate.length;
    const created = await tx.match.findMany({
      where: { externalId: { in: toCreate.map((m) => m.externalId) }, status: 'FINISHED' },
    });
    changedResultMatchIds.push(...created.map((m) => m.id));
    for (const row of created) await options.onResultChanged?.(tx, null, row);
  }

  // New or corrected results rescore their predictions in the same transaction, or past the limit in jobs committed
  // with it: one transaction per match after this one, each far inside its time limit.
  const limit = options.rescoreInTransactionMaxPredictions;
  const later =
    limit !== undefined &&
    changedResultMatchIds.length > 0 &&
    (await tx.prediction.count({ where: { matchId: { in: changedResultMatchIds } } })) > limit;
  if (later) await queueRescore(tx, changedResultMatchIds, new Date());
  const rescored = later ? { predictions: 0 } : await rescoreMatches(tx, changedResultMatchIds);
  return {
    tournamentId,
    tournament: tournamentState,
    rounds,
    teams: { created: newTeams.length },
    matches,
    changedResultMatchIds: changedResultMatchIds.sort((a, b) => a - b),
    rescoredPredictions: rescored.predictions,
    rescoreJobsQueued: later ? changedResultMatchIds.length : 0,
    keptDecisions,
    futureResultsIgnored,
  };
}
