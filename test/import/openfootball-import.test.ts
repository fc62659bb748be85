// The importer on a real database: counts, idempotency, changed results, and the real World Cup 2026 file.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { importTournament } from '../../src/import/import-tournament.ts';
import { parseOpenfootball } from '../../src/import/openfootball.ts';
import mini from '../fixtures/openfootball/mini-cup.json' with { type: 'json' };
import { freshDatabase, type TestDatabase } from '../helpers/db.ts';
import { ROOT } from '../helpers/process.ts';

const WORLD_CUP = `${ROOT}../shared/data/openfootball/2026-worldcup.json`;

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
      const report = await importTournament(t.db.prisma, parseOpenfootball(changed), { externalId: 'test:mini' });
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

  it.skipIf(!existsSync(WORLD_CUP))(
    'imports the real FIFA World Cup 2026: 104 matches, 48 teams, every shootout with its winner',
    async () => {
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
    },
  );
});

describe('npm run import:openfootball', () => {
  it('imports a file into the configured database, idempotently, and refuses a bad file with one line', async () => {
    const { runScript } = await import('../helpers/process.ts');
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
