// graphql-jit executes documents from their second sighting on (src/engine/graphql/jit-executor.ts): its responses,
// errors and variable handling must be graphql-js's.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeepTournamentsDocument,
  MyPredictionsDocument,
  UpcomingMatchesDocument,
} from '../../../src/graphql/generated/operations.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../../helpers/app.ts';

let jit: TestServer;
let interpreted: TestServer;
beforeAll(async () => {
  // The response cache is off: every request below executes.
  [jit, interpreted] = await Promise.all([
    startTestServer({ env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0' } }),
    startTestServer({ env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0', GRAPHQL_JIT: 'false' } }),
  ]);
});
afterAll(async () => {
  await jit.close();
  await interpreted.close();
});

describe('graphql-jit executor', () => {
  it('returns the deep nesting exactly as graphql-js does, interpreted first and compiled after', async () => {
    const [a, b] = [await jit.loginAs('player'), await interpreted.loginAs('player')];
    const reference = await interpreted.gql(DeepTournamentsDocument, {}, bearer(b));
    expect(reference.errors).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const r = await jit.gql(DeepTournamentsDocument, {}, bearer(a));
      expect(r.errors).toBeUndefined();
      expect(r.data).toEqual(reference.data);
    }
  });

  it('returns the match lists (list variables, DateTime and enum arguments) as graphql-js does', async () => {
    const [a, b] = [await jit.loginAs('player'), await interpreted.loginAs('player')];
    const same = async <R, V extends Record<string, unknown>>(doc: TypedDocumentNode<R, V>, vars: V) => {
      const reference = await interpreted.gql(doc, vars, bearer(b));
      expect(reference.errors).toBeUndefined();
      expect(Object.values(reference.data as Record<string, unknown[]>)[0].length).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) expect((await jit.gql(doc, vars, bearer(a))).data).toEqual(reference.data);
    };
    const from = new Date(Date.now() - 300 * 86400e3).toISOString();
    await same(UpcomingMatchesDocument, { from, status: ['FINISHED', 'SCHEDULED'], take: 50 });
    await same(MyPredictionsDocument, { status: ['SCORED'], take: 50 });
  });

  it("keeps resolvers' error codes, messages and paths", async () => {
    const token = await jit.loginAs('player');
    for (let i = 0; i < 3; i++) {
      const r = await jit.gql('query($id: Int!) { post(id: $id) { id } }', { id: 999999 }, bearer(token));
      expect(r.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' }, path: ['post'] });
      expect(r.data).toBeNull();
    }
  });

  it('applies the default of an omitted non-null input field, as graphql-js does', async () => {
    const token = await jit.loginAs('admin');
    const create =
      'mutation($input: CreateInvitationInput!) { createInvitation(input: $input) { invitation { email role } } }';
    for (let i = 0; i < 3; i++) {
      const r = await jit.gql(create, { input: { email: `jit${i}@demo.test` } }, bearer(token));
      expect(r.errors).toBeUndefined();
      expect(r.data.createInvitation.invitation).toEqual({ email: `jit${i}@demo.test`, role: 'player' });
    }
  });

  it('refuses bad variables with BAD_USER_INPUT, compiled or not', async () => {
    const token = await jit.loginAs('player');
    for (let i = 0; i < 3; i++) {
      const r = await jit.gql('query($t: Int) { companiesSearch(take: $t) { id } }', { t: 'ten' }, bearer(token));
      expect(r.status).toBe(400);
      expect(r.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('leaves @skip and @include to graphql-js, which gets fragments under them right', async () => {
    const token = await jit.loginAs('player');
    const cases: Array<[string, Record<string, unknown>, unknown]> = [
      ['{ me { ...F @skip(if: true) ...F } } fragment F on User { email }', {}, { me: { email: 'player1@demo.test' } }],
      [
        'query($a: Boolean!) { x: me { ...F @include(if: $a) } y: me { ...F } } fragment F on User { email }',
        { a: false },
        { x: {}, y: { email: 'player1@demo.test' } },
      ],
    ];
    for (const [query, variables, expected] of cases) {
      for (let i = 0; i < 3; i++) expect((await jit.gql(query, variables, bearer(token))).data).toEqual(expected);
    }
  });

  it('leaves a field aliased __proto__ to graphql-js, which returns the key in place', async () => {
    const token = await jit.loginAs('player');
    // graphql-jit drops the key; the shared-subtree executor wrote it last (an object literal's `__proto__`).
    for (let i = 0; i < 3; i++) {
      const { data } = await jit.gql<{ me: object }>('{ me { id __proto__: email x: name } }', {}, bearer(token));
      expect(Object.keys(data!.me)).toEqual(['id', '__proto__', 'x']);
      expect(JSON.stringify(data!.me)).toContain('"__proto__":"player1@demo.test"');
    }
  });
});
