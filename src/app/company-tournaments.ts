// Tournaments for a company: its admins (and its reseller, and managers) enter the global tournaments it plays and
// leave them, and build custom tournaments of its own (spec customTournaments, customTeams): the tournament, its
// rounds, teams and matches. Results are set as for any match (setMatchResult). Managers also import an
// openfootball file through the API, as the CLI does.
import { isUniqueViolation } from '../db/errors.ts';
import type { MatchRow, RoundRow, TeamRow, TournamentRow } from '../db/rows.ts';
import { badInput, conflict, notFound } from '../domain/errors.ts';
import { httpUrlInput, textInput } from '../domain/inputs.ts';
import { paging } from '../domain/paging.ts';
import { defaultExternalId, EXTERNAL_ID_RULE, isValidExternalId } from '../import/external-id.ts';
import { importLiveEvents, importTournament, type ImportReport } from '../import/import-tournament.ts';
import { FixtureFormatError, parseOpenfootball } from '../import/openfootball.ts';
import { auditedResult, recordAudit } from './audit.ts';
import type { RequestScope } from './scope.ts';

const adminOf = (scope: RequestScope) =>
  scope.requireRole('admin', "only admins, the company's reseller and managers choose its tournaments");

/** Global tournaments a company may enter (active ones, newest first). */
export async function availableTournaments(scope: RequestScope, args: { skip?: number | null; take?: number | null }) {
  adminOf(scope);
  const page = paging(args.skip, args.take);
  return scope.db.tournament.findMany({
    where: { ownerCompanyId: null, deletedAt: null, isActive: { not: false } },
    orderBy: [{ id: 'desc' }],
    skip: page.skip,
    take: page.take,
  });
}

async function globalTournament(scope: RequestScope, tournamentId: number): Promise<TournamentRow> {
  const t = await scope.db.tournament.findFirst({ where: { id: tournamentId, ownerCompanyId: null, deletedAt: null } });
  if (!t) throw notFound('tournament', tournamentId);
  return t;
}

/** Idempotent: entering a tournament the company plays changes nothing. */
export async function enterTournament(scope: RequestScope, tournamentId: number): Promise<TournamentRow> {
  const { tenant } = adminOf(scope);
  const tournament = await globalTournament(scope, tournamentId);
  await scope.write((tx) =>
    tx.companyTournament.upsert({
      where: { companyId_tournamentId: { companyId: tenant.id, tournamentId } },
      create: { companyId: tenant.id, tournamentId },
      update: {},
    }),
  );
  return tournament;
}

/** The company stops playing it: it leaves "my tournaments"; predictions and standings stay should it come back. */
export async function leaveTournament(scope: RequestScope, tournamentId: number): Promise<true> {
  const { tenant } = adminOf(scope);
  await globalTournament(scope, tournamentId);
  const left = await scope.write((tx) =>
    tx.companyTournament.deleteMany({ where: { companyId: tenant.id, tournamentId } }),
  );
  if (left.count === 0) throw notFound(`tournament ${tournamentId} among the company's tournaments`);
  return true;
}

// --- Custom tournaments ------------------------------------------------------------------------------------------

async function worldCountryId(scope: RequestScope): Promise<number> {
  const world = await scope.db.country.findFirst({ where: { name: 'World' } });
  if (world) return world.id;
  return (await scope.write((tx) => tx.country.create({ data: { name: 'World' } }))).id;
}

async function ownTournament(scope: RequestScope, companyId: number, tournamentId: number): Promise<TournamentRow> {
  const t = await scope.db.tournament.findFirst({
    where: { id: tournamentId, ownerCompanyId: companyId, deletedAt: null },
  });
  if (!t) throw notFound('custom tournament', tournamentId);
  return t;
}

export interface CustomTournamentInput {
  name?: string | null;
  logoUrl?: string | null;
  hasPenalties?: boolean | null;
  isActive?: boolean | null;
  endDate?: Date | null;
}

function tournamentData(input: CustomTournamentInput, creating: boolean) {
  const data: Record<string, unknown> = {};
  if (creating || input.name != null) data.name = textInput(input.name, 'name', 120);
  if (input.logoUrl !== undefined) data.logoUrl = httpUrlInput(input.logoUrl, 'logoUrl');
  if (input.hasPenalties != null) data.hasPenalties = input.hasPenalties;
  if (input.isActive != null) data.isActive = input.isActive;
  if (input.endDate !== undefined) data.endDate = input.endDate;
  return data;
}

export async function createCustomTournament(
  scope: RequestScope,
  input: CustomTournamentInput,
): Promise<TournamentRow> {
  const { tenant } = adminOf(scope);
  const data = tournamentData(input, true);
  const countryId = await worldCountryId(scope);
  return scope.write((tx) =>
    tx.tournament.create({ data: { ...data, countryId, ownerCompanyId: tenant.id } as never }),
  );
}

export async function updateCustomTournament(scope: RequestScope, tournamentId: number, input: CustomTournamentInput) {
  const { tenant } = adminOf(scope);
  const t = await ownTournament(scope, tenant.id, tournamentId);
  return scope.write((tx) => tx.tournament.update({ where: { id: t.id }, data: tournamentData(input, false) }));
}

export interface CustomRoundInput {
  name?: string | null;
  date?: Date | null;
  hasPenalties?: boolean | null;
}

export async function createCustomRound(
  scope: RequestScope,
  tournamentId: number,
  input: CustomRoundInput,
): Promise<RoundRow> {
  const { tenant } = adminOf(scope);
  const t = await ownTournament(scope, tenant.id, tournamentId);
  const name = textInput(input.name, 'name', 120);
  if (!input.date) throw badInput('date is required: when the round starts', 'date');
  return scope.write(async (tx) => {
    const last = await tx.round.aggregate({ where: { tournamentId: t.id }, _max: { position: true } });
    return tx.round.create({
      data: {
        tournamentId: t.id,
        name,
        date: input.date!,
        hasPenalties: input.hasPenalties ?? false,
        position: (last._max.position ?? 0) + 1,
      },
    });
  });
}

async function ownRound(scope: RequestScope, companyId: number, roundId: number): Promise<RoundRow> {
  const round = await scope.db.round.findUnique({ where: { id: roundId } });
  if (!round) throw notFound('round', roundId);
  await ownTournament(scope, companyId, round.tournamentId).catch(() => {
    throw notFound('round', roundId);
  });
  return round;
}

export async function updateCustomRound(
  scope: RequestScope,
  roundId: number,
  input: CustomRoundInput,
): Promise<RoundRow> {
  const { tenant } = adminOf(scope);
  const round = await ownRound(scope, tenant.id, roundId);
  const data: Record<string, unknown> = {};
  if (input.name != null) data.name = textInput(input.name, 'name', 120);
  if (input.date != null) data.date = input.date;
  if (input.hasPenalties != null) data.hasPenalties = input.hasPenalties;
  return scope.write((tx) => tx.round.update({ where: { id: round.id }, data }));
}

export async function createCustomTeam(
  scope: RequestScope,
  input: { name: string; logoUrl?: string | null },
): Promise<TeamRow> {
  const { tenant } = adminOf(scope);
  const name = textInput(input.name, 'name', 120);
  const logoUrl = httpUrlInput(input.logoUrl, 'logoUrl');
  if (await scope.db.team.findFirst({ where: { companyId: tenant.id, name }, select: { id: true } })) {
    throw conflict(`the company already has a team named "${name}"`, 'name');
  }
  const countryId = await worldCountryId(scope);
  return scope.write((tx) => tx.team.create({ data: { name, logoUrl, countryId, companyId: tenant.id } }));
}

export interface CustomMatchInput {
  roundId?: number | null;
  date?: Date | null;
  homeTeamId?: number | null;
  awayTeamId?: number | null;
  venue?: string | null;
  group?: string | null;
  /** Whether a draw goes to a shoot-out; a new match without it takes its round's. */
  hasPenalties?: boolean | null;
}

/** A team the company may field: one of its own, or a global one. */
async function usableTeam(scope: RequestScope, companyId: number, teamId: number, field: string) {
  const team = await scope.db.team.findUnique({ where: { id: teamId } });
  if (!team || (team.companyId !== null && team.companyId !== companyId)) {
    throw badInput(`team ${teamId} is neither one of the company's teams nor a global one`, field);
  }
  return team;
}

async function matchData(scope: RequestScope, companyId: number, input: CustomMatchInput, current?: MatchRow) {
  const data: Record<string, unknown> = {};
  if (input.homeTeamId != null)
    data.homeTeamId = (await usableTeam(scope, companyId, input.homeTeamId, 'homeTeamId')).id;
  if (input.awayTeamId != null)
    data.awayTeamId = (await usableTeam(scope, companyId, input.awayTeamId, 'awayTeamId')).id;
  if ((data.homeTeamId ?? current?.homeTeamId) === (data.awayTeamId ?? current?.awayTeamId)) {
    throw badInput('a team does not play itself', 'awayTeamId');
  }
  if (input.date != null) data.date = input.date;
  if (input.venue != null) data.venue = input.venue.trim().slice(0, 200);
  if (input.group !== undefined) data.group = input.group?.trim() || null;
  if (input.hasPenalties != null) data.hasPenalties = input.hasPenalties;
  return data;
}

export async function createCustomMatch(scope: RequestScope, input: CustomMatchInput): Promise<MatchRow> {
  const { tenant } = adminOf(scope);
  if (input.roundId == null) throw badInput('roundId is required', 'roundId');
  for (const f of ['date', 'homeTeamId', 'awayTeamId'] as const)
    if (input[f] == null) throw badInput(`${f} is required`, f);
  const round = await ownRound(scope, tenant.id, input.roundId).catch(() => {
    throw badInput(`round ${input.roundId} is not a round of the company's custom tournaments`, 'roundId');
  });
  const data = await matchData(scope, tenant.id, input);
  const hasPenalties = input.hasPenalties ?? round.hasPenalties;
  return scope.write((tx) =>
    tx.match.create({
      data: { ...data, hasPenalties, roundId: round.id, tournamentId: round.tournamentId } as never,
    }),
  );
}

/**
 * Teams, date, venue, group and whether it can go to penalties, until the match kicks off; its result goes through
 * setMatchResult.
 */
export async function updateCustomMatch(
  scope: RequestScope,
  matchId: number,
  input: CustomMatchInput,
): Promise<MatchRow> {
  const { tenant } = adminOf(scope);
  const match = await scope.db.match.findUnique({ where: { id: matchId } });
  if (!match) throw notFound('match', matchId);
  await ownTournament(scope, tenant.id, match.tournamentId).catch(() => {
    throw notFound('match', matchId);
  });
  if ((match.status !== 'SCHEDULED' && match.status !== 'TIMED') || match.date <= scope.now) {
    throw conflict('the match has started: only its result changes now (setMatchResult)');
  }
  const data = await matchData(scope, tenant.id, input, match);
  const row = await scope.write(async (tx) => {
    // A shoot-out winner predicted for a match that can no longer have one would never be scored: it goes.
    if (input.hasPenalties === false)
      await tx.prediction.updateMany({ where: { matchId: match.id }, data: { penaltiesWinner: null } });
    return tx.match.update({ where: { id: match.id }, data });
  });
  scope.live.publish({ kind: 'match', tournamentId: row.tournamentId, matchId: row.id });
  return row;
}

/**
 * Managers: writes an openfootball file's tournament, idempotently by externalId, as npm run import:openfootball
 * does. Without an externalId the tournament is known by its name in the file (openfootball:world-cup-2026).
 */
export async function importOpenfootball(
  scope: RequestScope,
  json: string,
  externalId?: string | null,
  { allowFutureResults = false }: { allowFutureResults?: boolean } = {},
): Promise<ImportReport> {
  const { viewer } = scope.requireRole('manager', 'only managers import tournaments');
  if (externalId != null && !isValidExternalId(externalId))
    throw badInput(`externalId must be ${EXTERNAL_ID_RULE}`, 'externalId');
  let parsed;
  try {
    parsed = parseOpenfootball(JSON.parse(json));
  } catch (err) {
    if (err instanceof SyntaxError) throw badInput('json is not valid JSON', 'json');
    if (err instanceof FixtureFormatError) throw badInput(err.message, 'json');
    throw err;
  }
  const id = externalId ?? defaultExternalId(parsed.name);
  if (!id)
    throw badInput(`the tournament name "${parsed.name}" has no letter or digit: give an externalId`, 'externalId');
  const report = await importTournament(scope.db, parsed, {
    externalId: id,
    rescoreInTransactionMaxPredictions: scope.config.rescoreInRequestMaxPredictions,
    now: scope.now,
    allowFutureResults,
    // Each result the file sets or corrects is a privileged change, audited as setMatchResult audits one.
    onResultChanged: (tx, before, after) =>
      recordAudit(tx, scope.now, {
        kind: 'RESULT_SET',
        companyId: null,
        tournamentId: after.tournamentId,
        actorId: viewer.id,
        reason: 'importOpenfootball',
        before: before && auditedResult(before),
        after: auditedResult(after),
      }),
  }).catch((err) => {
    if (isUniqueViolation(err)) throw conflict('another import of the same file is running; try again', 'externalId');
    throw err;
  });
  scope.loaders.clearAll();
  if (report.rescoreJobsQueued > 0) scope.rescoring.wake();
  for (const event of importLiveEvents(report)) scope.live.publish(event);
  return report;
}
