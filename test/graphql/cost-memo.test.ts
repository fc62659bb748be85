// The cost estimate is walked once per request shape (src/graphql/cost-plugin.ts): the same document, operation,
// variables and company size asked again reuse it, on a cache hit as on a miss, and still refuse what is too costly.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as cost from '../../src/graphql/cost.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer({ env: { GRAPHQL_MAX_COST: '200' } });
  token = await s.loginAs('player');
});
afterAll(() => s.close());

const PAGE = 'query N($take: Int) { myNotifications(take: $take) { id } }';

describe('the cost estimate of a repeated request', () => {
  it('is walked once, and reported the same each time', async () => {
    const walk = vi.spyOn(cost, 'operationCost');
    try {
      const first = await s.gql(PAGE, { take: 5 }, bearer(token));
      const again = await s.gql(PAGE, { take: 5 }, bearer(token));
      expect(first.errors).toBeUndefined();
      expect(again.errors).toBeUndefined();
      expect(walk).toHaveBeenCalledTimes(1);
      expect((again.extensions as { cost: number }).cost).toBe((first.extensions as { cost: number }).cost);
      // Other variables are another request: walked anew, and priced by their own take.
      const more = await s.gql(PAGE, { take: 50 }, bearer(token));
      expect(walk).toHaveBeenCalledTimes(2);
      expect((more.extensions as { cost: number }).cost).toBeGreaterThan((first.extensions as { cost: number }).cost);
    } finally {
      walk.mockRestore();
    }
  });

  it('still refuses a costly one every time it is asked, without walking it again', async () => {
    const walk = vi.spyOn(cost, 'operationCost');
    try {
      for (let i = 0; i < 3; i++) {
        const r = await s.gql(PAGE, { take: 500 }, bearer(token));
        expect(r.errors?.[0].extensions.code).toBe('QUERY_TOO_COSTLY');
        expect(r.data).toBeUndefined();
      }
      expect(walk).toHaveBeenCalledTimes(1);
    } finally {
      walk.mockRestore();
    }
  });

  it('is walked every time for variables too large to remember', async () => {
    const walk = vi.spyOn(cost, 'operationCost');
    try {
      // Refused later, by the search's own length check: the estimate comes first, for each of them.
      const q = 'query S($s: String) { companiesSearch(search: $s, take: 5) { id } }';
      for (let i = 0; i < 2; i++) {
        const r = await s.gql(q, { s: 'x'.repeat(4096) }, bearer(token));
        expect(r.errors?.[0].extensions.code).not.toBe('QUERY_TOO_COSTLY');
      }
      expect(walk).toHaveBeenCalledTimes(2);
    } finally {
      walk.mockRestore();
    }
  });
});
