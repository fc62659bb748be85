// End to end on the real FIFA World Cup 2026 fixtures: import them for Demo Corp with kickoffs moved into the
// future and the results stripped, let every Demo Corp user predict every match through the API, import the
// results, and check each user's total and position against a computation written here from the rules.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { ROOT, runScript } from '../helpers/process.ts';

const FILE = `${ROOT}../shared/data/openfootball/2026-worldcup.json`;
const YEARS_AHEAD = 5;

type OfMatch = {
  num?: number;
  date: string;
  time?: string;
  team1: string;
  team2: string;
  round: string;
  group?: string;
  score?: { ft?: number[]; et?: number[]; p?: number[] };
};

describe.skipIf(!existsSync(FILE))('World Cup 2026 end to end', () => {
  let s: TestServer;
  let dir: string;
  const env = () => ({
    DATABASE_URL: s.t.target.provider === 'sqlite' ? `file:${s.t.target.file}` : s.t.target.url,
    JWT_SECRET: 'j'.repeat(40),
  });
  beforeAll(async () => {
    s = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'prode-wc-'));
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scores every prediction and ranks every user exactly as the rules say', async () => {
    const original = JSON.parse(readFileSync(FILE, 'utf8')) as { name: string; matches: OfMatch[] };
    const shift = (m: OfMatch) => ({ ...m, date: `${Number(m.date.slice(0, 4)) + YEARS_AHEAD}${m.date.slice(4)}` });
    const fixtures = { ...original, matches: original.matches.map((m) => ({ ...shift(m), score: undefined })) };
    const results = { ...original, matches: original.matches.map(shift) };
    writeFileSync(join(dir, 'wc-fixtures.json'), JSON.stringify(fixtures));
    writeFileSync(join(dir, 'wc-results.json'), JSON.stringify(results));
    const args = (f: string) => [join(dir, f), '--external-id', 'openfootball:2026-worldcup', '--company', 'demo'];

    const first = runScript('scripts/import-openfootball.ts', env(), args('wc-fixtures.json'));
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).toMatch(/matches \+104/);

    // Every Demo Corp user predicts every match, deterministically, through the API.
    const p = s.t.db.prisma;
    const tournament = await p.tournament.findUniqueOrThrow({ where: { externalId: 'openfootball:2026-worldcup' } });
    const matches = await p.match.findMany({ where: { tournamentId: tournament.id }, orderBy: { id: 'asc' } });
    const users = await p.user.findMany({ where: { companyId: s.demo.companies.DEMO }, orderBy: { id: 'asc' } });
    const predictions = new Map<string, { home: number; away: number; pw: 'home' | 'away' | null }>();
    const MUTATION = 'mutation($input: UpsertPredictionInput!) { upsertPrediction(input: $input) { id } }';
    await Promise.all(
      users.map(async (user, u) => {
        const res = await fetch(`${s.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
          body: JSON.stringify({ email: user.email, password: DEMO_PASSWORD }),
        });
        const { token } = (await res.json()) as { token: string };
        for (const [i, m] of matches.entries()) {
          const home = (u * 7 + i * 3) % 4;
          const away = (u * 5 + i * 11) % 3;
          const pw = m.hasPenalties && home === away ? ((u + i) % 2 ? 'home' : 'away') : null;
          const r = await s.gql(
            MUTATION,
            { input: { matchId: m.id, homeTeamGoals: home, awayTeamGoals: away, penaltiesWinner: pw } },
            bearer(token),
          );
          expect(r.errors).toBeUndefined();
          predictions.set(`${user.id}:${m.id}`, { home, away, pw });
        }
      }),
    );

    const second = runScript('scripts/import-openfootball.ts', env(), args('wc-results.json'));
    expect(await second.exited, second.output()).toBe(0);
    expect(second.output()).toMatch(/~104 =0; 104 results new or changed/);

    // The rules, written out again independently of src/game.
    // Matches are keyed as the importer documents it: "m<num>", else date and teams.
    const keyOf = (m: OfMatch) =>
      m.num !== undefined ? `m${m.num}` : `${m.date}:${m.team1}:${m.team2}`.toLowerCase().replace(/\s+/g, '-');
    const byExternalId = new Map(results.matches.map((m) => [`openfootball:2026-worldcup:match:${keyOf(m)}`, m]));
    const expected = users.map((user) => {
      let points = 0,
        exact = 0,
        outcome = 0;
      for (const m of matches) {
        const source = byExternalId.get(m.externalId!)!;
        const [rh, ra] = source.score!.et ?? source.score!.ft!;
        const pens = source.score!.p;
        const winner = pens ? (pens[0] > pens[1] ? 'home' : 'away') : null;
        const pr = predictions.get(`${user.id}:${m.id}`)!;
        if (pr.home === rh && pr.away === ra) {
          points += 3;
          exact++;
        } else if (Math.sign(pr.home - pr.away) === Math.sign(rh - ra)) {
          points += 1;
          outcome++;
        }
        if (winner && pr.home === pr.away && pr.pw === winner) points += 1;
      }
      return { id: user.id, name: user.name, points, exact, outcome };
    });
    expected.sort(
      (a, b) => b.points - a.points || b.exact - a.exact || b.outcome - a.outcome || a.name.localeCompare(b.name),
    );
    const positions = expected.map((e, i) => {
      let j = i;
      while (
        j > 0 &&
        expected[j - 1].points === e.points &&
        expected[j - 1].exact === e.exact &&
        expected[j - 1].outcome === e.outcome
      )
        j--;
      return { ...e, position: j + 1 };
    });

    const token = await s.loginAs('player');
    const r = await s.gql(
      `query($t: Int!) { ranking(tournamentId: $t, take: 100) { total entries { position points exactHits ` +
        `outcomeHits user { id name } } } }`,
      { t: tournament.id },
      bearer(token),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.ranking.total).toBe(users.length);
    expect(
      r.data.ranking.entries.map((e: any) => ({
        id: e.user.id,
        name: e.user.name,
        points: e.points,
        exact: e.exactHits,
        outcome: e.outcomeHits,
        position: e.position,
      })),
    ).toEqual(positions);
    expect(positions[0].points).toBeGreaterThan(0);
  }, 240_000);
});
