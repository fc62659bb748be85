// The importer on a real database: counts, idempotency, changed results, and the real World Cup 2026 file.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { queueRescore, RESCORE_BUSY, runDueRescore, runDueRescores } from '../../src/game/rescore-jobs.ts';
import { importTournament } from '../../src/import/import-tournament.ts';
import { parseOpenfootball, type ParsedTournament } from '../../src/import/openfootball.ts';
import mini from '../fixtures/openfootball/mini-cup.json' with { type: 'json' };
import { freshDatabase, suiteProvider, type TestDatabase } from '../helpers/db.ts';
import { ROOT } from '../helpers/process.ts';
import { holdRowLock } from '../helpers/row-locks.ts';

const WORLD_CUP = `${ROOT}prisma/fixtures/openfootball/2026-worldcup.json`;
/** A clock past the Mini Cup's final: imports that bring its result run then, as a referee would. */
const AFTER_THE_FINAL = new Date('2031-01-01T00:00:00.000Z');

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.drop());

const counts = async () => ({
  tournaments: await t.db.prisma.tournament.count(),
  rounds: await t.db.prisma.round.count(),
  teams: await t.db.prisma.team.count(),
  countries: await t.db.prisma.country.count(),
  matches: await t.db.prisma.match.count(),
});

describe('importTournament', () => {
  it('imports the fixture: rounds, teams with their countries, matches in UTC with results', async () => {
    const report = await importTournament(t.db.prisma, parseOpenfootball(mini), { externalId: 'test:mini' });
    expect(report).toMatchObject({
      tournament: 'created',
      rounds: { created: 3, updated: 0 },
      teams: { created: 6 },
      matches: { created: 7, updated: 0, unchanged: 0 },
    });
    expect(report.changedResultMatchIds).toHaveLength(5);
    expect(await counts()).toEqual({ tournaments: 1, rounds: 3, teams: 6, countries: 7, matches: 7 });
    const shootout = await t.db.prisma.match.findUniqueOrThrow({
      where: { externalId: 'test:mini:match:m11' },
      include: { homeTeam: true, round: true },
    });
    expect(shootout).toMatchObject({
      homeTeamGoals: 1,
      awayTeamGoals: 1,
      homeTeamPenaltyGoals: 5,
      awayTeamPenaltyGoals: 4,
      penaltiesWinner: 'home',
      status: 'FINISHED',
      hasPenalties: true,
      homeTeam: { name: 'Charlie' },
      round: { name: 'Semi-finals' },
    });
    expect(shootout.date.toISOString()).toBe('2026-06-12T00:00:00.000Z');
  });

  it('a second run creates nothing and changes nothing', async () => {
    const before = await counts();
    const report = await importTournament(t.db.prisma, parseOpenfootball(mini), { externalId: 'test:mini' });
    expect(report).toMatchObject({
      tournament: 'unchanged',
      rounds: { created: 0, updated: 0 },
      teams: { created: 0 },
      matches: { created: 0, updated: 0, unchanged: 7 },
      changedResultMatchIds: [],
    });
    expect(await counts()).toEqual(before);
  });

  it(
    'a run with a new result and a corrected one updates exactly those matches and rescores their ' + 'predictions',
    async () => {
      const p = t.db.prisma;
      const company = await p.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'Importer Co', code: 'IMP' } });
      const user = await p.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          companyId: company.id,
          email: 'u@imp.test',
          name: 'U',
          externalId: 'u',
          loginProviderId: 'u',
        },
      });
      const finalMatch = await p.match.findUniqueOrThrow({ where: { externalId: 'test:mini:match:m12' } });
      await p.prediction.create({
        data: { userId: user.id, matchId: finalMatch.id, homeTeamGoals: 0, awayTeamGoals: 0, penaltiesWinner: 'away' },
      });
      const changed = structuredClone(mini);
      changed.matches[5].score = { ft: [1, 1], et: [1, 1], p: [2, 4] } as never; // the final is played
      changed.matches[0].score = { ft: [2, 2], ht: [1, 0] }; // a corrected group result
      const report = await importTournament(t.db.prisma, parseOpenfootball(changed), {
        externalId: 'test:mini',
        now: AFTER_THE_FINAL,
      });
      const final = await t.db.prisma.match.findUniqueOrThrow({ where: { externalId: 'test:mini:match:m12' } });
      const first = await t.db.prisma.match.findUniqueOrThrow({
        where: { externalId: 'test:mini:match:2026-06-01:alpha:bravo' },
      });
      expect(report.matches).toEqual({ created: 0, updated: 2, unchanged: 5 });
      expect(report.changedResultMatchIds).toEqual([first.id, final.id].sort((a, b) => a - b));
      expect(final).toMatchObject({ status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 1, penaltiesWinner: 'away' });
      expect(first).toMatchObject({ homeTeamGoals: 2, awayTeamGoals: 2 });
      // Predicted a draw (0-0) with the right shoot-out winner: outcome 1 + penalties bonus 1.
      expect(report.rescoredPredictions).toBe(1);
      expect(await p.prediction.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({
        status: 'SCORED',
        points: 2,
        outcomeHit: true,
      });
    },
  );

  it('past rescoreInTransactionMaxPredictions, leaves the rescoring to jobs committed with the import', async () => {
    const p = t.db.prisma;
    const user = await p.user.findFirstOrThrow({ where: { email: 'u@imp.test' } });
    const changed = structuredClone(mini);
    changed.matches[5].score = { ft: [2, 1] } as never; // the final, corrected: won in normal time
    changed.matches[0].score = { ft: [2, 2], ht: [1, 0] }; // as the previous run said
    const report = await importTournament(p, parseOpenfootball(changed), {
      externalId: 'test:mini',
      rescoreInTransactionMaxPredictions: 0,
      now: AFTER_THE_FINAL,
    });
    const final = await p.match.findUniqueOrThrow({ where: { externalId: 'test:mini:match:m12' } });
    expect(report.changedResultMatchIds).toEqual([final.id]);
    expect(report).toMatchObject({ rescoredPredictions: 0, rescoreJobsQueued: 1 });
    expect(final).toMatchObject({ homeTeamGoals: 2, awayTeamGoals: 1 });
    // The result is in; the points are the previous result's until the job runs.
    expect(await p.rescoreJob.findMany({ select: { matchId: true } })).toEqual([{ matchId: final.id }]);
    expect(await p.prediction.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({ points: 2 });
    expect(await runDueRescores(p)).toEqual({ done: 1, failed: 0, predictions: 1 });
    expect(await p.rescoreJob.count()).toBe(0);
    // Predicted a draw: nothing now.
    expect(await p.prediction.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({
      status: 'SCORED',
      points: 0,
      outcomeHit: false,
    });
  });

  // The old import wrote its matches before it took the tournament, and the runner waited for the tournament while
  // holding its jobs: a run and an import of the same matches could each wait for the other (a deadlock).
  it.runIf(suiteProvider === 'postgresql')(
    'an import and a rescoring run never wait for each other: the run gives up, the import waits first',
    async () => {
      const p = t.db.prisma;
      const final = await p.match.findUniqueOrThrow({ where: { externalId: 'test:mini:match:m12' } });
      await p.$transaction((tx) => queueRescore(tx, [final.id], new Date()));
      // Another writer of the tournament (a result being recorded), held open from outside.
      const releaseWriter = await holdRowLock(p, 'Tournament', final.tournamentId);
      const started = performance.now();
      expect(await runDueRescore(p, { timeoutMs: 30_000 })).toBe(RESCORE_BUSY);
      expect(performance.now() - started).toBeLessThan(1000); // PostgreSQL's deadlock check waits 1 s
      expect(await p.rescoreJob.findMany({ select: { matchId: true, attempts: true } })).toEqual([
        { matchId: final.id, attempts: 0 },
      ]);
      const changed = structuredClone(mini);
      changed.matches[5].score = { ft: [0, 1] } as never;
      changed.matches[0].score = { ft: [2, 2], ht: [1, 0] };
      const importing = importTournament(p, parseOpenfootball(changed), {
        externalId: 'test:mini',
        rescoreInTransactionMaxPredictions: 0,
        now: AFTER_THE_FINAL,
      });
      let imported = false;
      void importing.then(() => (imported = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(imported).toBe(false);
      // Waiting at the tournament, it holds no match: a run holding the tournament could take its matches.
      const free = await p.$transaction(
        (tx) => tx.$queryRaw<unknown[]>`SELECT "id" FROM "Match" WHERE "id" = ${final.id} FOR UPDATE NOWAIT`,
      );
      expect(free).toHaveLength(1);
      await releaseWriter();
      expect(await importing).toMatchObject({ changedResultMatchIds: [final.id], rescoreJobsQueued: 1 });
      expect(await runDueRescores(p)).toMatchObject({ done: 1, failed: 0 });
      expect(await p.rescoreJob.count()).toBe(0);
    },
  );

  it('a file that fails half-way leaves nothing behind', async () => {
    const before = await counts();
    const broken = parseOpenfootball({
      name: 'Broken',
      matches: [{ round: 'R', date: '2026-01-01', team1: 'New A', team2: 'New B' }],
    });
    broken.matches[0].roundName = 'a round that does not exist'; // the match cannot find its round
    await expect(importTournament(t.db.prisma, broken, { externalId: 'test:broken' })).rejects.toThrow();
    expect(await counts()).toEqual(before);
  });

  it('imports the real FIFA World Cup 2026: 104 matches, 48 teams, every shootout with its winner', async () => {
    const file = JSON.parse(readFileSync(WORLD_CUP, 'utf8'));
    const report = await importTournament(t.db.prisma, parseOpenfootball(file), {
      externalId: 'openfootball:2026-worldcup',
    });
    expect(report.matches.created).toBe(104);
    const tournament = await t.db.prisma.tournament.findUniqueOrThrow({
      where: { externalId: 'openfootball:2026-worldcup' },
    });
    const matches = await t.db.prisma.match.findMany({
      where: { tournamentId: tournament.id },
      include: { homeTeam: true, awayTeam: true },
    });
    expect(matches).toHaveLength(104);
    expect(new Set(matches.flatMap((m) => [m.homeTeamId, m.awayTeamId])).size).toBe(48);
    const shootouts = file.matches.filter((m: { score?: { p?: number[] } }) => m.score?.p);
    expect(shootouts.length).toBeGreaterThan(0);
    for (const m of shootouts) {
      const row = matches.find((r) => r.externalId === `openfootball:2026-worldcup:match:m${m.num}`)!;
      expect(row.homeTeamPenaltyGoals).toBe(m.score.p[0]);
      expect(row.awayTeamPenaltyGoals).toBe(m.score.p[1]);
      expect(row.penaltiesWinner).toBe(m.score.p[0] > m.score.p[1] ? 'home' : 'away');
    }
    const final = matches.find((r) => r.externalId === 'openfootball:2026-worldcup:match:m104')!;
    expect(final).toMatchObject({
      homeTeamGoals: 1,
      awayTeamGoals: 0,
      homeTeam: { name: 'Spain' },
      awayTeam: { name: 'Argentina' },
    });
    const again = await importTournament(t.db.prisma, parseOpenfootball(file), {
      externalId: 'openfootball:2026-worldcup',
    });
    expect(again.matches).toEqual({ created: 0, updated: 0, unchanged: 104 });
  });
});

describe('what people decided stays', () => {
  // The Mini Cup's final (m12) is scheduled for `2030-06-20 18:00 UTC`; its first group match was 2-1.
  const FINAL = 'm12';
  const FIRST = '2026-06-01:alpha:bravo';
  const KICKOFF = new Date('2030-06-20T18:00:00.000Z');
  const MOVED = new Date('2030-06-27T18:00:00.000Z');
  type Row = Record<string, unknown>;
  /** The Mini Cup file, with the final played (`final`), moved (`date`) or the first match changed (`first`). */
  const file = (change: { final?: number[]; date?: string; time?: string; first?: number[] } = {}) => {
    const f = structuredClone(mini) as { name: string; matches: Array<Record<string, unknown>> };
    if (change.final) f.matches[5].score = { ft: change.final };
    if (change.date) Object.assign(f.matches[5], { date: change.date, time: change.time });
    if (change.first) f.matches[0].score = { ft: change.first };
    return parseOpenfootball(f);
  };
  const postponed = { status: 'POSTPONED' };
  const cases: Array<{
    name: string;
    match?: string;
    /** What the operator set by hand after the first import. */
    operator: Row;
    /** The match imported before the importer remembered what the file said. */
    legacy?: boolean;
    again: ParsedTournament;
    expected: Row;
    kept: number;
    results: number;
  }> = [
    {
      name: 'POSTPONED survives the same file',
      operator: postponed,
      again: file(),
      expected: postponed,
      kept: 1,
      results: 0,
    },
    {
      name: 'CANCELLED survives the same file',
      operator: { status: 'CANCELLED' },
      again: file(),
      expected: { status: 'CANCELLED' },
      kept: 1,
      results: 0,
    },
    {
      name: 'SUSPENDED with the score so far survives the same file',
      operator: { status: 'SUSPENDED', homeTeamGoals: 1, awayTeamGoals: 0 },
      again: file(),
      expected: { status: 'SUSPENDED', homeTeamGoals: 1, awayTeamGoals: 0 },
      kept: 1,
      results: 0,
    },
    {
      name: 'a new date survives the same file',
      operator: { date: MOVED },
      again: file(),
      expected: { date: MOVED, status: 'SCHEDULED' },
      kept: 1,
      results: 0,
    },
    {
      name: 'a postponement to a new date survives the same file: both decisions',
      operator: { status: 'POSTPONED', date: MOVED },
      again: file(),
      expected: { status: 'POSTPONED', date: MOVED },
      kept: 2,
      results: 0,
    },
    {
      name: 'a score entered by hand survives the fixtures file again',
      operator: { status: 'FINISHED', homeTeamGoals: 3, awayTeamGoals: 0 },
      again: file(),
      expected: { status: 'FINISHED', homeTeamGoals: 3, awayTeamGoals: 0 },
      kept: 1,
      results: 0,
    },
    {
      name: 'a result the file brings wins over a postponement',
      operator: postponed,
      again: file({ final: [2, 1] }),
      expected: { status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 },
      kept: 0,
      results: 1,
    },
    {
      name: 'a new date the file brings wins over the one set by hand',
      operator: { date: MOVED },
      again: file({ date: '2030-06-21', time: '20:00' }),
      expected: { date: new Date('2030-06-21T20:00:00.000Z') },
      kept: 0,
      results: 0,
    },
    {
      name: 'a new kickoff the file brings schedules a postponed match again',
      operator: postponed,
      again: file({ date: '2030-06-21', time: '20:00' }),
      expected: { status: 'SCHEDULED', date: new Date('2030-06-21T20:00:00.000Z') },
      kept: 0,
      results: 1,
    },
    {
      name: 'a result the file brings applies, and the date set by hand stays',
      operator: { status: 'POSTPONED', date: MOVED },
      again: file({ final: [0, 0] }),
      expected: { status: 'FINISHED', homeTeamGoals: 0, awayTeamGoals: 0, date: MOVED },
      kept: 1,
      results: 1,
    },
    {
      name: "an operator's correction of a finished result survives the same file",
      match: FIRST,
      operator: { homeTeamGoals: 2, awayTeamGoals: 2 },
      again: file(),
      expected: { status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 2 },
      kept: 1,
      results: 0,
    },
    {
      name: 'a correction the file brings later wins over the one set by hand',
      match: FIRST,
      operator: { homeTeamGoals: 2, awayTeamGoals: 2 },
      again: file({ first: [3, 1] }),
      expected: { status: 'FINISHED', homeTeamGoals: 3, awayTeamGoals: 1 },
      kept: 0,
      results: 1,
    },
    {
      name: 'imported before the importer remembered: a status openfootball never gives survives',
      operator: postponed,
      legacy: true,
      again: file(),
      expected: postponed,
      kept: 1,
      results: 0,
    },
    {
      name: "imported before the importer remembered: the date is the file's (nothing tells it was moved)",
      operator: { date: MOVED },
      legacy: true,
      again: file(),
      expected: { date: KICKOFF },
      kept: 0,
      results: 0,
    },
  ];

  it.each(cases.map((c, i) => ({ ...c, i })))('$name', async (c) => {
    const p = t.db.prisma;
    const externalId = `test:decisions-${c.i}`;
    await importTournament(p, file(), { externalId });
    const where = { externalId: `${externalId}:match:${c.match ?? FINAL}` };
    const memory = c.legacy ? { importedDate: null, importedResult: null } : {};
    await p.match.update({ where, data: { ...c.operator, ...memory } as never });

    const report = await importTournament(p, c.again, { externalId, now: AFTER_THE_FINAL });
    expect(report.keptDecisions).toBe(c.kept);
    expect(report.changedResultMatchIds).toHaveLength(c.results);
    expect(await p.match.findUniqueOrThrow({ where })).toMatchObject(c.expected);
    // The file's other matches are untouched; a third run of the same file keeps the same decisions and writes
    // nothing.
    const third = await importTournament(p, c.again, { externalId, now: AFTER_THE_FINAL });
    expect(third.matches).toEqual({ created: 0, updated: 0, unchanged: 7 });
    expect(await p.match.findUniqueOrThrow({ where })).toMatchObject(c.expected);
  });
});

describe('npm run import:openfootball', () => {
  it('imports a file into the configured database, idempotently, and refuses a bad file with one line', async () => {
    const { runScript } = await import('../helpers/process.ts');
    // An empty database: the script migrates it before it writes (README.md, "Importing fixtures").
    const { emptyTarget } = await import('../helpers/db.ts');
    const { target, drop } = await emptyTarget();
    const env = {
      DATABASE_URL: target.provider === 'sqlite' ? `file:${target.file}` : target.url,
      JWT_SECRET: 'j'.repeat(40),
    };
    const fixture = `${ROOT}test/fixtures/openfootball/mini-cup.json`;
    try {
      const first = runScript('scripts/import-openfootball.ts', env, [fixture]);
      expect(await first.exited).toBe(0);
      expect(first.output()).toMatch(
        /"Mini Cup" \(openfootball:mini-cup\) created; rounds \+3 ~0; teams \+6; matches \+7 ~0 =0/,
      );
      const second = runScript('scripts/import-openfootball.ts', env, [fixture]);
      expect(await second.exited).toBe(0);
      expect(second.output()).toMatch(/unchanged; rounds \+0 ~0; teams \+0; matches \+0 ~0 =7/);
      const bad = runScript('scripts/import-openfootball.ts', env, [`${ROOT}package.json`]);
      expect(await bad.exited).toBe(1);
      expect(bad.output().trim().split('\n')).toEqual(['import:openfootball: matches must be an array']);
    } finally {
      await drop();
    }
  });
});
