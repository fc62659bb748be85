// A REST client hears its route's own words: parameters out of bounds are refused by the route up front (not by
// the GraphQL cost limit their stored operation would meet), and a limit's message names no GraphQL-only remedy
// (fewer nested lists, a mutation to call), since a route's selection is fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';

/** What only a GraphQL client can do: change its selection, or call an operation REST does not have. */
const GRAPHQL_REMEDY =
  /nested lists|pass take|selection|fragment|persisted quer|@defer|\(first:|requestEmailVerification/i;

async function get(s: TestServer, path: string, headers: Record<string, string>) {
  const res = await fetch(`${s.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
}

let s: TestServer;
let reseller: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer();
  reseller = { ...bearer(await s.loginAs('reseller')), 'x-app-path': 'partners' };
});
afterAll(() => s.close());

describe('GET /companies/search refuses paging out of bounds in its own words', () => {
  it.each([
    ['take=1000', 'query parameter take must be an integer from 1 to 100'],
    ['take=101', 'query parameter take must be an integer from 1 to 100'],
    ['take=0', 'query parameter take must be an integer from 1 to 100'],
    ['skip=-1', 'query parameter skip must be an integer >= 0'],
    [`search=${'x'.repeat(101)}`, 'query parameter search must be at most 100 characters'],
  ])('%s', async (query, message) => {
    const r = await get(s, `/companies/search?${query}`, reseller);
    expect(r).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', code: 'BAD_USER_INPUT', message },
    });
  });

  it('the bounds themselves are accepted', async () => {
    const r = await get(s, `/companies/search?take=100&skip=0&search=${'x'.repeat(100)}`, reseller);
    expect(r).toEqual({ status: 200, body: [] });
    expect((await get(s, '/companies/search?take=1', reseller)).body).toHaveLength(1);
  });
});

describe('limits and refusals over REST name no GraphQL-only remedy', () => {
  it('a query over GRAPHQL_MAX_COST: the limit, and take where the route has it', async () => {
    const low = await startTestServer({ env: { GRAPHQL_MAX_COST: '1000' } });
    try {
      const player = { ...bearer(await low.loginAs('player')), 'x-app-path': 'demo' };
      const mine = await get(low, '/tournaments/me', player);
      expect(mine.status).toBe(400);
      expect(mine.body.code).toBe('QUERY_TOO_COSTLY');
      expect(mine.body.message).toMatch(
        /^the response may hold [\d,]+ objects, over the limit of 1,000 \(GRAPHQL_MAX_COST\)$/,
      );
      const headers = { ...bearer(await low.loginAs('reseller')), 'x-app-path': 'partners' };
      const search = await get(low, '/companies/search?take=100', headers);
      expect(search.status).toBe(400);
      expect(search.body.code).toBe('QUERY_TOO_COSTLY');
      expect(search.body.message).toMatch(/over the limit of 1,000 \(GRAPHQL_MAX_COST\): pass a smaller take$/);
      for (const r of [mine, search]) expect(r.body.message).not.toMatch(GRAPHQL_REMEDY);
      // GraphQL's own response keeps its remedies.
      const gql = await low.gql('{ myTournaments { rounds { matches { predictions { id } } } } }', {}, player);
      expect(gql.errors?.[0].message).toMatch(/ask for fewer nested lists, or pass take/);
    } finally {
      await low.close();
    }
  });

  it('a response stopped at GRAPHQL_MAX_OBJECTS', async () => {
    const small = await startTestServer({ env: { GRAPHQL_MAX_OBJECTS: '30', RESPONSE_CACHE_MB: '0' } });
    try {
      const player = { ...bearer(await small.loginAs('player')), 'x-app-path': 'demo' };
      const r = await get(small, '/tournaments/me', player);
      expect(r).toEqual({
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          code: 'RESPONSE_TOO_LARGE',
          message: 'the response holds more than 30 objects (GRAPHQL_MAX_OBJECTS)',
        },
      });
    } finally {
      await small.close();
    }
  });

  it('POST /auth/login where the e-mail is not confirmed yet', async () => {
    const prisma = s.t.db.prisma;
    const user = await prisma.user.findFirstOrThrow({ where: { email: 'player2@demo.test' } });
    await prisma.user.update({ where: { id: user.id }, data: { emailVerified: false } });
    await prisma.company.update({ where: { id: user.companyId }, data: { requiresEmailVerification: true } });
    try {
      const res = await fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
        body: JSON.stringify({ email: 'player2@demo.test', password: DEMO_PASSWORD }),
      });
      expect(res.status).toBe(403);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('EMAIL_NOT_VERIFIED');
      expect(body.message).toBe('confirm your e-mail first: open the link sent to player2@demo.test');
      expect(body.message).not.toMatch(GRAPHQL_REMEDY);
    } finally {
      await prisma.company.update({ where: { id: user.companyId }, data: { requiresEmailVerification: false } });
      await prisma.user.update({ where: { id: user.id }, data: { emailVerified: true } });
    }
  });
});
