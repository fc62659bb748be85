// Hostile input (properties.ts says which properties hold) in GraphQL documents that are wrong, and in their
// envelope: unknown fields and operations, bad syntax, odd operation kinds; variables and operation names of the
// wrong JSON type, long lists of bad variables, and GET requests with and without the CSRF-prevention header.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { authArb } from './credentials.ts';
import { BASE_SEED, closingChecks, hostile } from './properties.ts';
import { gqlPost, type Req } from './requests.ts';
import { useHostileServer } from './server.ts';
import { hostileJson, nanishString, plausibleInt } from './values.ts';

/** Documents that are wrong: unknown fields and operations, bad syntax, odd operation kinds. */
const unknownArb: fc.Arbitrary<Req> = fc
  .oneof(
    fc.constantFrom(
      '{ nope }',
      'query { me { nope } }',
      'mutation { nope }',
      'mutation { me { id } }',
      'query { login(email: "a", password: "b") { token } }',
      'subscription { me { id } }',
      'subscription S { myNotifications { id } }',
      'subscription { nope }',
      'fragment F on User { id }',
      '{ ...Missing }',
      '{ __type(name: "User") { name } }',
      '{ __typename }',
      '{ me }',
      '{ me { company } }',
      '{ me(id: 1) { id } }',
      'query Q($x: Int) { me { id } }',
      'query { me { id } } query { me { id } }',
      'query A { me { id } } query A { me { id } }',
      '{ me { id } } mutation M { deletePost(id: 1) }',
      'query { me { ... on Company { id } } }',
      '{',
      '}',
      '',
      ' ',
      '#',
      '{ me { id }',
      '"string"',
      '{ me { id } } }',
      'query ($) { me { id } }',
      'extend type Query { x: Int }',
      'type X { y: Int }',
      'schema { query: Query }',
      'directive @x on FIELD',
      '{ me @nope { id } }',
      'query @skip(if: true) { me { id } }',
      '{ me { id @skip } }',
      '{ ...on Query { me { id } } }',
      '{ post(id: 1) { ...on Post { ...on Post { id } } } }',
    ),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc
      .array(
        fc.constantFrom(
          '{',
          '}',
          '(',
          ')',
          '[',
          ']',
          ':',
          '$',
          '@',
          '...',
          '!',
          '=',
          '|',
          '&',
          'query',
          'mutation',
          'subscription',
          'fragment',
          'on',
          'me',
          'id',
          '"x"',
          '#',
          '\n',
          '1',
          'true',
        ),
        { maxLength: 40 },
      )
      .map((toks) => toks.join(' ')),
  )
  .chain((query) =>
    fc
      .tuple(authArb, fc.option(fc.oneof(fc.string(), fc.constant('Nope')), { nil: undefined }))
      .map(([auth, operationName]) => gqlPost('graphql unknown', query, { operationName }, auth)),
  );

/** The envelope: variables and operationName of the wrong JSON type, odd extensions, odd keys. */
const envelopeArb: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom(
      '{ me { id } }',
      'query Q($id: Int!) { post(id: $id) { id } }',
      'query Q($t: Int, $s: String) { companiesSearch(take: $t, search: $s) { id } }',
      'mutation M($i: UpsertPredictionInput!) { upsertPrediction(input: $i) { id } }',
      'query Q($ids: [Int!]) { ranking(tournamentId: 1, roundIds: $ids) { total } }',
    ),
    fc.record(
      {
        variables: fc.oneof(
          hostileJson,
          fc.dictionary(fc.constantFrom('id', 't', 's', 'i', 'ids', 'x', '__proto__'), hostileJson, { maxKeys: 4 }),
        ),
        operationName: fc.oneof(hostileJson, fc.constantFrom('Q', 'M', 'q', 'Nope')),
        extensions: fc.oneof(
          hostileJson,
          fc.constant({ persistedQuery: { version: 1, sha256Hash: 'deadbeef' } }),
          fc.constant({ persistedQuery: { version: 2 } }),
        ),
        query: fc.oneof(fc.constant(undefined), hostileJson),
        id: hostileJson,
      },
      { requiredKeys: [] },
    ),
    fc.boolean(),
    authArb,
  )
  .map(([query, env, keepQuery, auth]) => {
    const body = { ...(keepQuery ? { query } : {}), ...env };
    return {
      cat: 'graphql envelope',
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      auth,
      graphql: true,
    };
  });

/** List variables with many entries of one (often wrong) kind: every bad entry is an error to report. */
const listVariablesArb: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom(
      'query Q($v: [Int!]) { ranking(tournamentId: 1, roundIds: $v) { total } }',
      'mutation M($v: [Int!]) { markNotificationsRead(ids: $v) }',
      'mutation M($v: [Int!]!) { setDreamFinalPicks(settingId: 1, teamIds: $v) { id } }',
    ),
    fc.integer({ min: 1, max: 5_000 }),
    fc.oneof(plausibleInt, nanishString, hostileJson),
    authArb,
  )
  .map(([query, n, entry, auth]) =>
    gqlPost('graphql envelope', query, { variables: { v: Array.from({ length: n }, () => entry) } }, auth),
  );

/** GET /graphql: queries and mutations, with and without the CSRF-prevention header. */
const getArb: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom(
      '{ me { id } }',
      'mutation { deletePost(id: 1) }',
      'mutation { login(email: "a", password: "b") { token } }',
      '',
      '{',
      'subscription { me { id } }',
    ),
    fc.boolean(),
    authArb,
  )
  .map(([query, preflight, auth]): Req => ({
    cat: 'graphql envelope',
    method: 'GET',
    path: query ? `/graphql?${new URLSearchParams({ query })}` : '/graphql',
    headers: preflight ? { 'apollo-require-preflight': '1' } : ({} as Record<string, string>),
    auth,
    graphql: true,
  }));

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it('GraphQL: unknown fields and operations, and envelopes with badly typed variables', async () => {
    await hostile('unknown', unknownArb, 15, BASE_SEED + 2);
    await hostile(
      'envelope',
      fc.oneof(
        { weight: 4, arbitrary: envelopeArb },
        { weight: 1, arbitrary: getArb },
        { weight: 1, arbitrary: listVariablesArb },
      ),
      20,
      BASE_SEED + 3,
    );
  });

  closingChecks(140);
});
