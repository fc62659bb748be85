// Every stored query (operations/manifest.json) returns the same on the three executors, over one database:
// graphql-js (GRAPHQL_JIT=false), graphql-jit (GRAPHQL_SHARED_SUBTREES=false) and the default, where a query's
// repeated objects are completed once (src/engine/graphql/shared-subtrees/executor.ts). Each document is asked three
// times: interpreted the first time, compiled after. A stored query added without a case here fails the last test.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoIds } from '../../../prisma/seed/demo-seed.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../../helpers/app.ts';
import type { DemoUser } from '../../helpers/demo.ts';
import { forgeInvitationLink } from '../../helpers/tokens.ts';

interface Case {
  /** Who asks; null: nobody signed in. */
  as: DemoUser | null;
  variables: (demo: DemoIds) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The response is an error on every executor (their errors are compared, with paths). */
  fails?: boolean;
}

const longAgo = new Date(Date.now() - 400 * 86400e3).toISOString();

const CASES: Record<string, Case[]> = {
  AccountPageInvitation: [
    { as: null, variables: async (d) => ({ jwt: await forgeInvitationLink(d.invitations['new.hire2@demo.test']) }) },
    { as: null, variables: () => ({ jwt: 'not-a-token' }), fails: true },
  ],
  BenchPost: [{ as: 'player', variables: (d) => ({ id: d.posts.demo[0] }) }],
  BenchRanking: [{ as: 'player', variables: (d) => ({ t: d.tournament }) }],
  DeepTournaments: [{ as: 'admin', variables: () => ({}) }],
  DeepTournamentsMine: [{ as: 'player', variables: () => ({}) }],
  Me: [{ as: 'player', variables: () => ({}) }],
  MyPredictions: [
    { as: 'player', variables: () => ({ take: 50 }) },
    { as: 'player', variables: (d) => ({ tournamentId: d.tournament, status: ['SCORED'] }) },
  ],
  RestCompaniesSearch: [
    { as: 'reseller', variables: () => ({ take: 10 }) },
    { as: 'player', variables: () => ({ search: 'demo' }) },
  ],
  RestInvitationByJwt: [
    { as: null, variables: async (d) => ({ jwt: await forgeInvitationLink(d.invitations['new.hire2@demo.test']) }) },
    { as: null, variables: () => ({ jwt: 'not-a-token' }), fails: true },
  ],
  RestMyTournaments: [
    { as: 'player', variables: () => ({}) },
    { as: 'globexPlayer', variables: () => ({}) },
  ],
  RestPost: [
    { as: 'player', variables: (d) => ({ id: d.posts.demo[0] }) },
    { as: 'player', variables: (d) => ({ id: d.posts.globex }), fails: true },
  ],
  RestPostComments: [{ as: 'admin', variables: (d) => ({ postId: d.posts.demo[0] }) }],
  RestSignInMethods: [
    { as: null, variables: () => ({ company: 'demo', redirect: '/' }) },
    { as: null, variables: () => ({ company: 'no-such-company' }), fails: true },
  ],
  UpcomingMatches: [{ as: 'player', variables: () => ({ from: longAgo, take: 50 }) }],
};

const manifest = JSON.parse(readFileSync('operations/manifest.json', 'utf8')) as {
  operations: { name: string; type: string; body: string }[];
};
const queries = manifest.operations.filter((op) => op.type === 'query');

let shared: TestServer;
let jit: TestServer;
let interpreted: TestServer;
let tokens: Partial<Record<DemoUser, string>>;

beforeAll(async () => {
  // The response cache is off: every request executes.
  shared = await startTestServer({ env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0' } });
  const same = { target: shared.t.target, seed: false };
  [jit, interpreted] = await Promise.all([
    startTestServer({ ...same, env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0', GRAPHQL_SHARED_SUBTREES: 'false' } }),
    startTestServer({ ...same, env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0', GRAPHQL_JIT: 'false' } }),
  ]);
  tokens = await shared.loginAll(['player', 'admin', 'reseller', 'globexPlayer']);
});
afterAll(async () => {
  await jit.close();
  await interpreted.close();
  await shared.close();
});

describe('executors return the same for every stored query', () => {
  for (const op of queries) {
    it(op.name, async () => {
      for (const c of CASES[op.name] ?? []) {
        const variables = await c.variables(shared.demo);
        const headers = c.as ? bearer(tokens[c.as]!) : {};
        const reference = await interpreted.gql(op.body, variables, headers);
        const { status, data, errors } = reference;
        if (c.fails) expect(errors?.length).toBeGreaterThan(0);
        else {
          expect(errors, JSON.stringify(errors)).toBeUndefined();
          expect(JSON.stringify(data).length).toBeGreaterThan(50);
        }
        for (let i = 0; i < 3; i++) {
          for (const server of [shared, jit]) {
            const response = await server.gql(op.body, variables, headers);
            const { status: s, data: d, errors: e } = response;
            expect({ status: s, data: d, errors: e }).toEqual({ status, data, errors });
          }
        }
      }
    });
  }

  it('completed them with shared subtrees, and gave the failing ones back to graphql-jit', async () => {
    const text = await (await fetch(`${shared.url}/metrics`)).text();
    const runs = (result: string) =>
      Number(new RegExp(`^prode_graphql_shared_runs_total{result="${result}"} (\\d+)`, 'm').exec(text)?.[1]);
    // Each case is asked three times; a document is compiled from its second request on, whatever the variables.
    let answered = 0;
    let abandoned = 0;
    for (const cases of Object.values(CASES)) {
      for (const c of cases)
        if (c.fails) abandoned += 3;
        else answered += 3;
      if (cases[0].fails) abandoned--;
      else answered--;
    }
    expect(runs('answered')).toBe(answered);
    expect(runs('abandoned')).toBe(abandoned);
  });

  it('has a case for every stored query', () => {
    expect(Object.keys(CASES).sort()).toEqual(queries.map((op) => op.name).sort());
  });
});
