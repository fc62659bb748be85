// The cost estimate is walked once per request shape (src/engine/graphql/cost-memo.ts): the same document, operation,
// variables and company size asked again reuse it, on a cache hit as on a miss, and still refuse what is too costly.
// Without the memo (ENGINE_OFF=cost-memo, or plain) every request is walked, and priced the same.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as cost from '../../../src/graphql/cost.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../../helpers/app.ts';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer({ env: { ...FULL_ENGINE, GRAPHQL_MAX_COST: '200' } }); // the part under test
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

describe('without the memo', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer({ env: { ...FULL_ENGINE, ENGINE_OFF: 'cost-memo', GRAPHQL_MAX_COST: '200' } });
  });
  afterAll(() => off?.close());

  it('walks the same request each time, prices it as the memo does, and refuses a costly one each time', async () => {
    const offToken = await off.loginAs('player');
    const remembered = await s.gql(PAGE, { take: 5 }, bearer(token));
    const walk = vi.spyOn(cost, 'operationCost');
    try {
      const first = await off.gql(PAGE, { take: 5 }, bearer(offToken));
      const again = await off.gql(PAGE, { take: 5 }, bearer(offToken));
      expect(walk).toHaveBeenCalledTimes(2);
      expect((again.extensions as { cost: number }).cost).toBe((first.extensions as { cost: number }).cost);
      expect((first.extensions as { cost: number }).cost).toBe((remembered.extensions as { cost: number }).cost);
      for (let i = 0; i < 2; i++)
        expect((await off.gql(PAGE, { take: 500 }, bearer(offToken))).errors?.[0].extensions.code).toBe(
          'QUERY_TOO_COSTLY',
        );
      expect(walk).toHaveBeenCalledTimes(4);
    } finally {
      walk.mockRestore();
    }
  });
});
