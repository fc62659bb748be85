// The CSV exports over HTTP on the demo data and people added with awkward names: each export is parsed with
// csv-parse and compared, row by row, with what the API answers the same caller (`ranking`, `Match.predictions`,
// `users`), over more rows than one page (EXPORT_PAGE_ROWS=10).
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'admin' | 'reseller' | 'manager', string>;
let demoId: number;

/** Names a CSV must quote (comma, quote, CR, LF) or make inert (a leading =, +, -, @, tab). */
const AWKWARD = [
  'Comma, Carla',
  'Quote "Q" Quinn',
  'Line\nBreak',
  'Carriage\rReturn',
  '=SUM(A1:A9)',
  '+Plus Pat',
  '-Minus Mo',
  '@At Ana',
  '\tTab Tom',
  'Ñandú Ünicode 漢字',
];
const FILLERS = Array.from({ length: 28 }, (_, i) => `Filler ${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  s = await startTestServer({ env: { EXPORT_PAGE_ROWS: '10' } });
  tokens = await s.loginAll(['admin', 'reseller', 'manager']);
  demoId = s.demo.companies.DEMO;
  const p = s.t.db.prisma;
  const { opener, final } = s.demo.matches;
  for (const [i, name] of [...AWKWARD, ...FILLERS].entries()) {
    const user = await p.user.create({
      data: {
        companyId: demoId,
        name,
        email: `export${i}@demo.test`,
        externalId: i % 3 === 0 ? `=EXT${i}` : `ext-${i}`,
        loginProviderId: `export${i}@demo.test`,
        extraFields: [],
        notificationSettings: {},
      },
    });
    // Scored predictions on the finished opener (the round ranking counts them), and one on the final, which
    // has not kicked off: the admin may not see it.
    await p.prediction.create({
      data: {
        userId: user.id,
        matchId: opener,
        homeTeamGoals: i % 4,
        awayTeamGoals: i % 3,
        status: 'SCORED',
        points: i % 5,
        exactHit: i % 5 === 4,
        outcomeHit: i % 5 > 0,
      },
    });
    if (i % 2 === 0)
      await p.prediction.create({ data: { userId: user.id, matchId: final, homeTeamGoals: 1, awayTeamGoals: 0 } });
  }
});
afterAll(() => s.close());

async function csv(path: string, token: string, headers: Record<string, string> = { 'x-app-path': 'demo' }) {
  const res = await fetch(`${s.url}${path}`, { headers: { ...bearer(token), ...headers } });
  const text = await res.text();
  return { res, text };
}

/** The records of an RFC 4180 text: CRLF after every record, parsed strictly, as objects by the header row. */
function records(text: string): Array<Record<string, string>> {
  // Outside quotes every line ends with CRLF; a bare CR or LF only occurs inside a quoted field.
  const unquoted = text.replace(/"(?:[^"]|"")*"/g, '');
  expect(unquoted.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  expect(text.endsWith('\r\n')).toBe(true);
  return parse(text, { columns: true, record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false });
}

/** A value as the export writes it: what a spreadsheet would run as a formula gets a leading quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (typeof value === 'number') return text;
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) ? `'${text}` : text;
}

interface RankingRow {
  position: number;
  points: number;
  exactHits: number;
  outcomeHits: number;
  roundWins?: number | null;
  user: { id: number; name: string };
}

/** The CSV record a ranking entry the API returns becomes (`roundWins` only under ROUND_WINS). */
function rankingRecord(e: RankingRow, withRoundWins = false): Record<string, string> {
  return {
    position: cell(e.position),
    userId: cell(e.user.id),
    name: cell(e.user.name),
    points: cell(e.points),
    exactHits: cell(e.exactHits),
    outcomeHits: cell(e.outcomeHits),
    ...(withRoundWins ? { roundWins: cell(e.roundWins) } : {}),
  };
}

async function allPages<T>(query: string, field: string, variables: Record<string, unknown>, token: string) {
  const out: T[] = [];
  for (let skip = 0; ; skip += 100) {
    const { data, errors } = await s.gql(query, { ...variables, skip }, { ...bearer(token), 'x-app-path': 'demo' });
    expect(errors).toBeUndefined();
    const page = data[field];
    const items = (Array.isArray(page) ? page : page.entries) as T[];
    out.push(...items);
    if (items.length < 100) return out;
  }
}

const RANKING = `query ($t: Int!, $r: Int, $skip: Int) {
  ranking(tournamentId: $t, roundId: $r, skip: $skip, take: 100) {
    entries { position points exactHits outcomeHits user { id name } }
  }
}`;

describe('GET /exports/rankings/{tournamentId}.csv', () => {
  for (const round of [null, 'Matchday 1'] as const)
    it(`is the ${round ? 'round' : 'general'} ranking the admin reads: every page, order, position`, async () => {
      const roundId = round ? s.demo.rounds[round] : null;
      const path = `/exports/rankings/${s.demo.tournament}.csv${roundId ? `?roundId=${roundId}` : ''}`;
      const { res, text } = await csv(path, tokens.admin);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="ranking-${s.demo.tournament}.csv"`);
      expect(text.split('\r\n')[0]).toBe('position,userId,name,points,exactHits,outcomeHits');
      const api = await allPages<RankingRow>(RANKING, 'ranking', { t: s.demo.tournament, r: roundId }, tokens.admin);
      expect(api.length).toBeGreaterThan(30);
      expect(records(text)).toEqual(api.map((e) => rankingRecord(e)));
    });

  it('under each tie rule, and for an area, is the ranking the admin reads (roundWins under ROUND_WINS)', async () => {
    const query = `query ($t: Int!, $a: Int, $skip: Int) {
      ranking(tournamentId: $t, areaId: $a, skip: $skip, take: 100) {
        entries { position points exactHits outcomeHits roundWins user { id name } }
      }
    }`;
    const area = s.demo.areas['Buenos Aires'];
    const setRule = async (tieRule: string) => {
      const { errors } = await s.gql(
        'mutation ($c: Int!, $r: TieRule!) { updateScoringSettings(companyId: $c, confirm: true, ' +
          'input: { tieRule: $r }) { __typename } }',
        { c: demoId, r: tieRule },
        { ...bearer(tokens.admin), 'x-app-path': 'demo' },
      );
      expect(errors).toBeUndefined();
    };
    try {
      for (const tieRule of ['ROUND_WINS', 'POINTS'])
        for (const areaId of [null, area]) {
          await setRule(tieRule);
          const path = `/exports/rankings/${s.demo.tournament}.csv${areaId ? `?areaId=${areaId}` : ''}`;
          const { res, text } = await csv(path, tokens.admin);
          expect(res.status).toBe(200);
          const api = await allPages<RankingRow>(query, 'ranking', { t: s.demo.tournament, a: areaId }, tokens.admin);
          expect(api.length).toBeGreaterThan(areaId ? 2 : 30);
          expect(records(text), `${tieRule} ${areaId}`).toEqual(
            api.map((e) => rankingRecord(e, tieRule === 'ROUND_WINS')),
          );
        }
    } finally {
      await setRule('HITS');
    }
  });

  it('a reseller exports a managed company named by x-app-path; a round of another tournament is a 400', async () => {
    const { res, text } = await csv(`/exports/rankings/${s.demo.tournament}.csv`, tokens.reseller);
    expect(res.status).toBe(200);
    expect(records(text).map((r) => r.name)).toContain(cell('=SUM(A1:A9)'));
    const bad = await csv(`/exports/rankings/${s.demo.tournament}.csv?roundId=999999`, tokens.admin);
    expect(bad.res.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ statusCode: 400, code: 'BAD_USER_INPUT' });
    const odd = await csv(`/exports/rankings/${s.demo.tournament}.csv?sort=name`, tokens.admin);
    expect(JSON.parse(odd.text)).toMatchObject({ statusCode: 400, message: expect.stringContaining('sort') });
  });
});

const PREDICTIONS = `query ($t: Int!) {
  tournament(id: $t) {
    rounds { name matches { id date homeTeam { name } awayTeam { name } predictions {
      id homeTeamGoals awayTeamGoals penaltiesWinner isJoker status points user { id name }
    } } }
  }
}`;

describe('GET /exports/predictions/{tournamentId}.csv', () => {
  it('is every prediction Match.predictions shows the admin: after kickoff all, before only their own', async () => {
    const { res, text } = await csv(`/exports/predictions/${s.demo.tournament}.csv`, tokens.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="predictions-${s.demo.tournament}.csv"`);
    const { data } = await s.gql(
      PREDICTIONS,
      { t: s.demo.tournament },
      { ...bearer(tokens.admin), 'x-app-path': 'demo' },
    );
    type Row = { key: [number, number, number]; row: Record<string, string> };
    const expected: Row[] = [];
    for (const round of data.tournament.rounds)
      for (const m of round.matches)
        for (const p of m.predictions)
          expected.push({
            key: [Date.parse(m.date), m.id, p.user.id],
            row: {
              predictionId: cell(p.id),
              matchId: cell(m.id),
              kickoff: cell(m.date),
              round: cell(round.name),
              homeTeam: cell(m.homeTeam.name),
              awayTeam: cell(m.awayTeam.name),
              userId: cell(p.user.id),
              userName: cell(p.user.name),
              homeTeamGoals: cell(p.homeTeamGoals),
              awayTeamGoals: cell(p.awayTeamGoals),
              penaltiesWinner: cell(p.penaltiesWinner),
              isJoker: cell(p.isJoker),
              status: cell(p.status),
              points: cell(p.points),
            },
          });
    expected.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
    const rows = records(text);
    expect(rows).toEqual(expected.map((e) => e.row));
    expect(rows.length).toBeGreaterThan(38);
    // The final has not kicked off: the players' predictions on it stay out.
    const onFinal = rows.filter((r) => r.matchId === String(s.demo.matches.final));
    const admin = s.demo.users['admin@demo.test'];
    expect(onFinal.every((r) => r.userId === String(admin))).toBe(true);
  });

  it('a tournament the company does not play is a 404 in the REST error shape', async () => {
    const p = s.t.db.prisma;
    const { countryId } = await p.tournament.findUniqueOrThrow({ where: { id: s.demo.tournament } });
    const globexCup = await p.tournament.create({
      data: { name: 'Globex Export Cup', countryId, ownerCompanyId: s.demo.companies.GLOBEX },
    });
    const { res, text } = await csv(`/exports/predictions/${globexCup.id}.csv`, tokens.admin);
    expect(res.status).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'NOT_FOUND' });
  });
});

const USERS = `query ($skip: Int, $d: Boolean) {
  users(skip: $skip, take: 100, deactivated: $d) {
    id externalId name email role emailVerified areaLevel1Id areaLevel2Id areaLevel3Id loginProviderName
    preferredLanguage timezone createdAt lastActiveDate loginCount deletedAt
  }
}`;

describe('GET /exports/users.csv', () => {
  for (const deactivated of [false, true])
    it(`is the ${deactivated ? 'deactivated' : 'active'} people users lists the admin, every field`, async () => {
      if (deactivated)
        await s.t.db.prisma.user.updateMany({
          where: { name: { startsWith: 'Filler 1' } },
          data: { deletedAt: new Date() },
        });
      const { res, text } = await csv(`/exports/users.csv${deactivated ? '?deactivated=true' : ''}`, tokens.admin);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="users${deactivated ? '-deactivated' : ''}.csv"`,
      );
      const api = await allPages<Record<string, unknown>>(USERS, 'users', { d: deactivated }, tokens.admin);
      expect(api.length).toBeGreaterThan(deactivated ? 9 : 30);
      expect(records(text)).toEqual(
        api.map((u) => Object.fromEntries(Object.entries(u).map(([k, v]) => [k, cell(v)]))),
      );
    });

  it('a manager exports Globex by x-app-host: Globex people only', async () => {
    const { res, text } = await csv('/exports/users.csv', tokens.manager, { 'x-app-host': 'prode.globex.test' });
    expect(res.status).toBe(200);
    const emails = records(text).map((r) => r.email);
    expect(emails.length).toBeGreaterThan(0);
    for (const e of emails) expect(e).toMatch(/@globex\.test$/);
  });
});
