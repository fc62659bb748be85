// The importer as a referee: a result only for a match whose kickoff has passed (--allow-future-results for
// replays), a match's identity that survives a date change in the file, and round positions by the rounds' dates.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { importTournament } from '../../src/import/import-tournament.ts';
import { parseOpenfootball } from '../../src/import/openfootball.ts';
import mini from '../fixtures/openfootball/mini-cup.json' with { type: 'json' };
import { importCommand } from '../helpers/openfootball-cli.ts';
import { ROOT } from '../helpers/process.ts';

const WORLD_CUP = `${ROOT}prisma/fixtures/openfootball/2026-worldcup.json`;
type FileMatch = Record<string, unknown> & { date: string; num?: number; group?: string; score?: unknown };

// One database for the file, and the command line run against it.
const cli = importCommand();

/** The Mini Cup with its final (m12) played 2-1. */
const finalPlayed = () => {
  const f = structuredClone(mini) as { name: string; matches: FileMatch[] };
  f.matches[5].score = { ft: [2, 1] };
  return f;
};
const BEFORE_THE_FINAL = new Date('2030-06-20T17:00:00.000Z');
const AFTER_THE_FINAL = new Date('2030-06-20T21:00:00.000Z');

describe('the referee: a result only once the kickoff has passed', () => {
  it('a result for a match still ahead is left out, taken after kickoff, and taken at once when allowed', async () => {
    const p = cli.t.db.prisma;
    const company = await p.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'Ref Co', code: 'REF' } });
    const externalId = 'test:referee';
    const before = await importTournament(p, parseOpenfootball(finalPlayed()), { externalId, now: BEFORE_THE_FINAL });
    expect(before.futureResultsIgnored).toBe(1);
    const where = { externalId: `${externalId}:match:m12` };
    expect(await p.match.findUniqueOrThrow({ where })).toMatchObject({
      status: 'SCHEDULED',
      homeTeamGoals: null,
      awayTeamGoals: null,
    });
    // A player predicts while the match is still open; the result the file already had must not score it yet.
    const user = await p.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: company.id,
        email: 'r@ref.test',
        name: 'R',
        externalId: 'r',
        loginProviderId: 'r',
      },
    });
    const final = await p.match.findUniqueOrThrow({ where });
    await p.prediction.create({ data: { userId: user.id, matchId: final.id, homeTeamGoals: 2, awayTeamGoals: 1 } });

    const after = await importTournament(p, parseOpenfootball(finalPlayed()), { externalId, now: AFTER_THE_FINAL });
    expect(after.futureResultsIgnored).toBe(0);
    expect(after.changedResultMatchIds).toEqual([final.id]);
    expect(await p.match.findUniqueOrThrow({ where })).toMatchObject({
      status: 'FINISHED',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
    });
    expect(await p.prediction.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({
      status: 'SCORED',
      exactHit: true,
    });

    const replay = await importTournament(p, parseOpenfootball(finalPlayed()), {
      externalId: 'test:referee-replay',
      now: BEFORE_THE_FINAL,
      allowFutureResults: true,
    });
    expect(replay.futureResultsIgnored).toBe(0);
    expect(await p.match.findUniqueOrThrow({ where: { externalId: 'test:referee-replay:match:m12' } })).toMatchObject({
      status: 'FINISHED',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
    });
  });

  it('npm run import:openfootball leaves a future result out, and takes it with --allow-future-results', async () => {
    const path = cli.file('future.json', { ...finalPlayed(), name: 'Future Cup' });
    const plain = await cli.run(path, '--external-id', 'test:future');
    expect(plain.code).toBe(0);
    expect(plain.output).toContain('1 results of matches not yet kicked off left out (--allow-future-results)');
    const where = { externalId: 'test:future:match:m12' };
    expect(await cli.t.db.prisma.match.findUniqueOrThrow({ where })).toMatchObject({ status: 'SCHEDULED' });
    const allowed = await cli.run(path, '--external-id', 'test:future', '--allow-future-results');
    expect(allowed.code).toBe(0);
    expect(allowed.output).not.toContain('left out');
    expect(await cli.t.db.prisma.match.findUniqueOrThrow({ where })).toMatchObject({
      status: 'FINISHED',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
    });
    expect((await cli.run('--help')).output).toContain('--allow-future-results');
  });
});

describe("a match's identity survives a date change in the file", () => {
  it('the World Cup 2026 imported again with un-numbered group matches moved: still 104 matches', async () => {
    const p = cli.t.db.prisma;
    const file = JSON.parse(readFileSync(WORLD_CUP, 'utf8')) as { name: string; matches: FileMatch[] };
    const externalId = 'test:wc-moved';
    const options = { externalId, now: new Date('2026-11-01T00:00:00.000Z') };
    await importTournament(p, parseOpenfootball(file), options);
    const tournament = await p.tournament.findUniqueOrThrow({ where: { externalId } });
    const moved = file.matches.filter((m) => m.num === undefined && m.group !== undefined).slice(0, 3);
    expect(moved).toHaveLength(3);
    const before = await p.match.findMany({ where: { tournamentId: tournament.id }, orderBy: { id: 'asc' } });
    // A prediction on a moved match stays on it.
    const key = (m: FileMatch) =>
      `${externalId}:match:${`${m.date}:${m.team1}:${m.team2}`.toLowerCase().replace(/\s+/g, '-')}`;
    const firstMoved = before.find((r) => r.externalId === key(moved[0]))!;
    for (const m of moved) m.date = `${m.date.slice(0, 8)}${String(Number(m.date.slice(8)) + 1).padStart(2, '0')}`;

    const report = await importTournament(p, parseOpenfootball(file), options);
    expect(report.matches).toEqual({ created: 0, updated: 3, unchanged: 101 });
    const after = await p.match.findMany({ where: { tournamentId: tournament.id }, orderBy: { id: 'asc' } });
    expect(after).toHaveLength(104);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    const again = after.find((r) => r.id === firstMoved.id)!;
    expect(again.externalId).toBe(key(moved[0]));
    expect(again.date.getTime() - firstMoved.date.getTime()).toBe(24 * 3600_000);
    // Known by its new key: a third run changes nothing.
    const third = await importTournament(p, parseOpenfootball(file), options);
    expect(third.matches).toEqual({ created: 0, updated: 0, unchanged: 104 });
  });
});

describe("round positions follow the rounds' dates", () => {
  it('a file listing the final first still places it last', async () => {
    const f = structuredClone(mini) as { name: string; matches: FileMatch[] };
    f.matches.reverse();
    const parsed = parseOpenfootball(f);
    expect(parsed.rounds.map((r) => [r.name, r.position])).toEqual([
      ['Group Stage', 1],
      ['Semi-finals', 2],
      ['Final', 3],
    ]);
    const p = cli.t.db.prisma;
    await importTournament(p, parsed, { externalId: 'test:reversed' });
    const rounds = await p.round.findMany({
      where: { tournament: { externalId: 'test:reversed' } },
      orderBy: { position: 'asc' },
    });
    expect(rounds.map((r) => r.name)).toEqual(['Group Stage', 'Semi-finals', 'Final']);
  });
});
