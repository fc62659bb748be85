// Query cost that knows lists, the object budget behind it, and the cap on a response's bytes: one player's small
// cyclic query must not take the process (and every tenant with it) down.
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  parse,
  type DocumentNode,
  type OperationDefinitionNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { documentFragments, LIST_ESTIMATES, operationCost } from '../../src/graphql/cost.ts';
import * as documents from '../../src/graphql/generated/operations.ts';
import { getSchema } from '../../src/graphql/schema.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

const schema = getSchema();
const defaults = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40) }, () => {}).graphql;

// The issue's report: depth 14, walking match > predictions > user > predictions > match > ...
const CYCLE_PATH = Array.from({ length: 13 }, (_, i) => ['predictions', 'user', 'predictions', 'match'][i % 4]);
const CYCLE = `{match(id:1){${CYCLE_PATH.map((f) => `${f}{`).join('')}id${'}'.repeat(13)}}}`;

function costOf(doc: DocumentNode, variables: Record<string, unknown>, companyUsers: number) {
  const fragments = documentFragments(doc);
  const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return operationCost(schema, operation, fragments, variables, { companyUsers });
}

describe('the cost estimate', () => {
  it('has a deliberate estimate for every list of objects in the schema, and none for a field that is gone', () => {
    const lists: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (isListType(getNullableType(field.type)) && isCompositeType(getNamedType(field.type)))
          lists.push(`${type.name}.${field.name}`);
      }
    }
    expect(Object.keys(LIST_ESTIMATES).sort()).toEqual(lists.sort());
  });

  it('multiplies by the lists: the cycle costs more than any limit, one level of it does not', () => {
    expect(CYCLE.length).toBeLessThanOrEqual(171);
    expect(costOf(parse(CYCLE), {}, 20)).toBeGreaterThan(1e12);
    // match 1 + 20 predictions x (1 + user 1 + 500 predictions)
    expect(costOf(parse('{ match(id: 1) { predictions { user { predictions { id } } } } }'), {}, 20)).toBe(
      1 + 20 * (1 + 1 + 500),
    );
  });

  it("uses take where given, the caller's own prediction for onlyMine, nothing for @cutoff and skipped fields", () => {
    const q = (take: string) =>
      parse(
        `query($t: Int, $s: Boolean!) { companiesSearch(take: ${take}) { id areas @cutoff { id } tournaments ` +
          `@skip(if: $s) { id } } }`,
      );
    expect(costOf(q('7'), { s: true }, 20)).toBe(7);
    expect(costOf(q('$t'), { t: 3, s: false }, 20)).toBe(3 * (1 + 3));
    expect(costOf(q('$t'), { s: true }, 20)).toBe(20); // no take: the default page
    const mine = parse('{ match(id: 1) { predictions(onlyMine: true) { id } } }');
    expect(costOf(mine, {}, 100_000)).toBe(2);
    const ranking = parse('{ ranking(tournamentId: 1, take: 50) { entries { user { id } } } }');
    expect(costOf(ranking, {}, 20)).toBe(1 + 50 * 2);
  });

  it('prices @cutoff at nothing only where execution cuts: a list field whose every copy carries it', async () => {
    const deep = 'user { predictions { match { predictions { id } } } }';
    const plain = costOf(parse(`{ match(id: 1) { predictions { ${deep} } } }`), {}, 20);
    // On an object field @cutoff cuts nothing.
    expect(costOf(parse(`{ match(id: 1) @cutoff { predictions { ${deep} } } }`), {}, 20)).toBe(plain);
    // A copy without it: execution merges the copies and resolves the cut one's selection too.
    expect(
      costOf(parse(`{ match(id: 1) { predictions { id } predictions @cutoff { ${deep} } } }`), {}, 20),
    ).toBeGreaterThanOrEqual(plain);
    expect(
      costOf(
        parse(`{ match(id: 1) { ...F predictions @cutoff { ${deep} } } } fragment F on Match { predictions { id } }`),
        {},
        20,
      ),
    ).toBeGreaterThanOrEqual(plain);
    // Every copy cut: nothing below it runs.
    expect(
      costOf(parse(`{ match(id: 1) { predictions @cutoff { id } predictions @cutoff { ${deep} } } }`), {}, 20),
    ).toBe(1);
  });

  it(
    "keeps every REST route and benchmark workload within the default limit at the benchmark's scale (5,000 " +
      'users)',
    () => {
      const costs: Record<string, number> = {};
      for (const [name, doc] of Object.entries(documents)) {
        if (!/^(Rest|Bench|DeepTournamentsMine).*Document$/.test(name)) continue;
        costs[name] = costOf(doc as DocumentNode, { take: 100, t: 1 }, 5000); // take at its REST maximum
      }
      expect(Object.keys(costs)).toContain('RestCompaniesSearchDocument');
      for (const [name, cost] of Object.entries(costs)) expect(cost, name).toBeLessThanOrEqual(defaults.maxCost);
      // Everyone's predictions of every match of a 5,000-user company is refused; for the 20-person demo it runs.
      expect(costOf(documents.DeepTournamentsDocument, {}, 5000)).toBeGreaterThan(defaults.maxCost);
      expect(costOf(documents.DeepTournamentsDocument, {}, 20)).toBeLessThan(defaults.maxCost);
    },
  );
});

describe('limits on a running server', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    token = await s.loginAs('player');
  });
  afterAll(() => s.close());

  it('refuses the cyclic query before it runs, in seconds at most, with the memory flat', async () => {
    // Warm up: compile paths, caches, the first request's allocations.
    await s.gql(CYCLE, {}, bearer(token));
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => s.gql(CYCLE, {}, bearer(token))));
    const elapsed = performance.now() - started;
    for (const r of results) {
      expect(r.status).toBe(400);
      expect(r.data).toBeUndefined();
      expect(r.errors).toHaveLength(1);
      expect(r.errors![0].extensions.code).toBe('QUERY_TOO_COSTLY');
      expect(r.errors![0].message).toMatch(
        /may cost [\d.e+,]+ objects, over the limit of 3,000,000 \(GRAPHQL_MAX_COST\)/,
      );
      expect(r.errors![0].extensions.maxCost).toBe(defaults.maxCost);
      // The data version and the credential lookup; no resolver ran.
      expect(r.extensions?.sqlStatements ?? 0).toBeLessThanOrEqual(3);
    }
    // Walking the cycle would take minutes; the bound is loose because the machine running the suite is shared.
    expect(elapsed).toBeLessThan(5000); // twenty of them
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    const healthy = await s.gql('{ me { email } }', {}, bearer(token));
    expect(healthy.data.me.email).toBe('player1@demo.test');
  });

  it('does not let @cutoff hide a cycle: on an object field, or beside a copy without it', async () => {
    const below =
      'user { predictions { match { predictions { user { predictions { match { predictions { id } } } } } } } }';
    const cycle = `predictions { ${below} }`;
    for (const query of [
      `{ match(id: 1) @cutoff { ${cycle} } }`,
      `{ match(id: 1) { predictions { id } predictions @cutoff { ${below} } } }`,
    ]) {
      const r = await s.gql(query, {}, bearer(token));
      expect(r.errors?.[0].extensions.code, query).toBe('QUERY_TOO_COSTLY');
    }
    // Where every copy is cut, the list returns [] and costs nothing.
    const cut = await s.gql(`{ match(id: 1) { id predictions @cutoff { ${below} } } }`, {}, bearer(token));
    expect(cut.errors).toBeUndefined();
    expect(cut.data.match.predictions).toEqual([]);
  });

  it('returns the same refusal over REST and GraphQL when an operator lowers the limit', async () => {
    const low = await startTestServer({ env: { GRAPHQL_MAX_COST: '1000' } });
    try {
      const t = await low.loginAs('player');
      const rest = await fetch(`${low.url}/tournaments/me`, { headers: bearer(t) });
      expect(rest.status).toBe(400);
      const body = (await rest.json()) as Record<string, unknown>;
      expect(body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        code: 'QUERY_TOO_COSTLY',
        message: expect.stringMatching(/over the limit of 1,000 \(GRAPHQL_MAX_COST\)/),
      });
      // A cheap query still runs.
      expect((await low.gql('{ me { email } }', {}, bearer(t))).data.me.email).toBe('player1@demo.test');
    } finally {
      await low.close();
    }
  });

  it(
    'stops execution once a request has resolved GRAPHQL_MAX_OBJECTS objects: no partial data, fewer ' + 'statements',
    async () => {
      const query =
        '{ myTournaments { rounds { matches { predictions { user { areaLevel1 { id } areaLevel2 { id } } } } } } }';
      const full = await s.gql(query, {}, bearer(token));
      expect(full.errors).toBeUndefined();
      const small = await startTestServer({ env: { GRAPHQL_MAX_OBJECTS: '30', RESPONSE_CACHE_MB: '0' } });
      try {
        const t = await small.loginAs('player');
        const r = await small.gql(query, {}, bearer(t));
        expect(r.status).toBe(400);
        expect(r.data).toBeUndefined();
        expect(r.errors).toEqual([
          {
            message: expect.stringMatching(/more than 30 objects \(GRAPHQL_MAX_OBJECTS\): execution stopped/),
            extensions: { code: 'RESPONSE_TOO_LARGE', limit: 'objects', maxObjects: 30 },
          },
        ]);
        // The loaders below the level where the budget ran out never ran.
        expect(r.extensions!.sqlStatements!).toBeLessThan(full.extensions!.sqlStatements!);
        expect((r.extensions as { objects: number }).objects).toBeLessThan(
          (full.extensions as { objects: number }).objects,
        );
        // No batch loads more rows than the budget has left (plus the one that tells): the count stays near it.
        expect((r.extensions as { objects: number }).objects).toBeLessThanOrEqual(2 * 30 + 1);
        // A small query is within the budget.
        expect((await small.gql('{ me { company { id } } }', {}, bearer(t))).errors).toBeUndefined();
      } finally {
        await small.close();
      }
    },
  );

  it('refuses a response over GRAPHQL_MAX_RESPONSE_BYTES, over GraphQL and REST', async () => {
    const capped = await startTestServer({ env: { GRAPHQL_MAX_RESPONSE_BYTES: '1024' } });
    try {
      const t = await capped.loginAs('player');
      const r = await capped.gql(
        '{ company { areas { id name parentArea { id name } } } myTournaments { rounds { matches { id date homeTeam ' +
          '{ name } awayTeam { name } } } } }',
        {},
        bearer(t),
      );
      expect(r.errors, 'the response must be over 1 KiB for this test').toBeDefined();
      expect(r.status).toBe(400);
      expect(r.data).toBeUndefined();
      expect(r.errors![0].extensions).toEqual({ code: 'RESPONSE_TOO_LARGE', limit: 'bytes', maxBytes: 1024 });
      expect(r.errors![0].message).toMatch(/bytes, over the limit of 1,024 \(GRAPHQL_MAX_RESPONSE_BYTES\)/);
      const rest = await fetch(`${capped.url}/tournaments/me`, { headers: bearer(t) });
      expect(rest.status).toBe(400);
      expect(await rest.json()).toMatchObject({ statusCode: 400, code: 'RESPONSE_TOO_LARGE' });
      // Small responses pass, and assets other than JSON responses (the docs page's script) are not capped.
      expect((await capped.gql('{ me { email } }', {}, bearer(t))).data.me.email).toBe('player1@demo.test');
      expect((await fetch(`${capped.url}/docs/swagger-ui-bundle.js`)).status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});
