// Hostile input (properties.ts says which properties hold) in GraphQL documents built to multiply work: deep, wide,
// alias- and fragment-multiplied documents, walks of the schema's cycles and lists inside lists, and batches. Each
// is refused before it runs, or runs within the limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authArb } from './credentials.ts';
import { BASE_SEED, closingChecks, hostile, POOL } from './properties.ts';
import { counts, gqlPost, type Req } from './requests.ts';
import { useHostileServer } from './server.ts';
import { hostileJson } from './values.ts';

const EXPENSIVE = [
  'ranking(tournamentId: 1) { total entries { position points user { name } } }',
  'myTournaments { id rounds { id matches { id predictions { id points } } } }',
  'companiesSearch(take: 100) { id name }',
  'company { id areas { id childrenAreas { id } } }',
  'me { id company { id } }',
];
const expensive = fc.constantFrom(...EXPENSIVE);

/** `n` fragment definitions, one per line. */
const fragments = (n: number, each: (i: number) => string) => Array.from({ length: n }, (_, i) => each(i)).join('\n');

const abuseArb: fc.Arbitrary<Req> = fc.oneof(
  // Deep: a valid chain far past the depth limit.
  fc
    .integer({ min: 16, max: 3_000 })
    .map((d) =>
      gqlPost('graphql deep', `{ company { areas { ${'childrenAreas { '.repeat(d)}id${' }'.repeat(d)} } } }`),
    ),
  // Deep: syntactic nesting that only the parser sees (up to ~200k levels).
  fc
    .tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('{ a ', '{', '[', '{a:', '(a:['))
    .map(([d, open]) => gqlPost('graphql deep', `{ me ${open.repeat(d)} }`)),
  fc
    .integer({ min: 1_000, max: 100_000 })
    .map((d) => gqlPost('graphql deep', `{ companiesSearch(search: ${'['.repeat(d)}"x"${']'.repeat(d)}) { id } }`)),
  // Deep variables (written as text: too deep for JSON.stringify here, not for the server's parser).
  fc
    .tuple(
      fc.integer({ min: 100, max: 50_000 }),
      fc.constantFrom(
        'query($v: IdRef) { me { id } }',
        'query($v: [Int!]) { ranking(tournamentId: 1, roundIds: $v) { total } }',
        'mutation($v: UpdateInvitationInput!) { updateInvitation(id: 1, input: $v) { id } }',
      ),
    )
    .map(([d, query]): Req => ({
      ...gqlPost('graphql deep', query),
      body: `{"query": ${JSON.stringify(query)}, "variables": {"v": ${'{"id":['.repeat(d)}1${']}'.repeat(d)}}}`,
    })),
  // Wide: thousands of fields, repeated or aliased.
  fc
    .tuple(fc.integer({ min: 1_000, max: 30_000 }), fc.constantFrom('id', 'name', '__typename', 'email'))
    .map(([n, f]) => gqlPost('graphql wide', `{ me { ${`${f} `.repeat(n)} } }`)),
  fc
    .integer({ min: 1_001, max: 20_000 })
    .map((n) => gqlPost('graphql wide', `{ me { ${Array.from({ length: n }, (_, i) => `f${i}: name`).join(' ')} } }`)),
  fc
    .integer({ min: 500, max: 10_000 })
    .map((n) => gqlPost('graphql wide', `{ ${Array.from({ length: n }, (_, i) => `f${i}: __typename`).join(' ')} }`)),
  // Aliases of an expensive field.
  fc
    .tuple(fc.oneof(fc.constant(500), fc.integer({ min: 31, max: 2_000 })), expensive)
    .map(([n, f]) => gqlPost('graphql aliases', `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${f}`).join(' ')} }`)),
  // Fragment bombs: each level spreads the next one b times (b^levels expansions), and cycles.
  fc
    .tuple(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 5, max: 40 }), expensive)
    .map(([b, levels, f]) =>
      gqlPost(
        'graphql fragments',
        `{ ...F0 }\n${fragments(levels, (i) => `fragment F${i} on Query { ${`...F${i + 1} `.repeat(b)} }`)}` +
          `\nfragment F${levels} on Query { ${f} }`,
      ),
    ),
  fc
    .integer({ min: 2, max: 200 })
    .map((n) =>
      gqlPost(
        'graphql fragments',
        `{ me { ...F0 } }\n${fragments(n, (i) => `fragment F${i} on User { id ...F${(i + 1) % n} }`)}`,
      ),
    ),
  // Many fragments whose fields must all be checked against each other (OverlappingFieldsCanBeMerged).
  fc
    .tuple(fc.integer({ min: 100, max: 2_000 }), fc.boolean())
    .map(([n, conflicting]) =>
      gqlPost(
        'graphql fragments',
        `{ ${Array.from({ length: n }, (_, i) => `...F${i}`).join(' ')} }\n${Array.from(
          { length: n },
          (_, i) => `fragment F${i} on Query { x: companiesSearch(take: ${conflicting ? i : 1}) { id } }`,
        ).join('\n')}`,
      ),
    ),
  fc
    .integer({ min: 100, max: 3_000 })
    .map((n) =>
      gqlPost(
        'graphql fragments',
        `{ ${Array.from({ length: n }, (_, i) => `x: companiesSearch(take: ${i % 100}) { id }`).join(' ')} }`,
      ),
    ),
  // Directives repeated, unknown directives, @skip/@include with odd values.
  fc
    .tuple(
      fc.integer({ min: 2, max: 20_000 }),
      fc.constantFrom(
        '@skip(if: false)',
        '@include(if: true)',
        '@cutoff',
        '@nope',
        '@deprecated',
        '@skip(if: "no")',
        '@include(if: $x)',
      ),
    )
    .map(([n, d]) => gqlPost('graphql directives', `{ me ${d.repeat(n)} { id } }`)),
  // Many operations in one document, picking one (or none) by name.
  fc
    .tuple(
      fc.integer({ min: 2, max: 5_000 }),
      fc.option(fc.oneof(fc.string(), fc.integer(), fc.constant('Op0')), { nil: undefined }),
    )
    .map(([n, name]) =>
      gqlPost('graphql operations', Array.from({ length: n }, (_, i) => `query Op${i} { me { id } }`).join('\n'), {
        operationName: name,
      }),
    ),
  // Introspection as deep as it goes.
  fc
    .integer({ min: 5, max: 60 })
    .map((d) =>
      gqlPost(
        'graphql deep',
        `{ __schema { types { fields { type { ${'ofType { '.repeat(d)}name${' }'.repeat(d)} } } } } }`,
      ),
    ),
  // Long tokens: a 100k-character name, number, string or comment.
  fc
    .tuple(fc.integer({ min: 10_000, max: 100_000 }), fc.constantFrom('name', 'int', 'string', 'comment', 'block'))
    .map(([n, kind]) =>
      gqlPost(
        'graphql wide',
        {
          name: `{ ${'a'.repeat(n)} }`,
          int: `{ companiesSearch(take: ${'9'.repeat(n)}) { id } }`,
          string: `{ companiesSearch(search: "${'\\u0000'.repeat(n / 6)}") { id } }`,
          comment: `{ me { id } } # ${'x'.repeat(n)}`,
          block: `{ companiesSearch(search: """${'\\"""'.repeat(n / 4)}""") { id } }`,
        }[kind]!,
      ),
    ),
);

// Documents that walk the schema's cycles (match > predictions > user > predictions > match ...) or nest lists
// inside lists: small documents whose responses would grow with the product of the lists' sizes.
const CYCLE_STEPS = [
  ['predictions', 'user', 'predictions', 'match'],
  ['predictions', 'user', 'company', 'tournaments', 'rounds', 'matches'],
  ['predictions', 'user', 'posts', 'likes', 'user', 'predictions', 'match'],
  ['predictions', 'user', 'company', 'areas', 'childrenAreas'],
];
const LIST_CHAINS = [
  'companiesSearch(take: $take) { tournaments { rounds { matches { predictions { user { company ' +
    '{ tournaments { rounds { matches { id } } } } } } } } } }',
  'myTournaments { rounds { matches { predictions { user { predictions { match { predictions { id } } } } } } } }',
  'company { tournaments { rounds { matches { predictions { user ' +
    '{ posts { comments { likes { user { id } } } } } } } } } }',
  'myInternalRankings { members { id } tournament { rounds { matches { predictions { user { company ' +
    '{ areas { childrenAreas { childrenAreas { id } } } } } } } } } }',
  'myTournaments { rounds { matches { predictions { user { company ' +
    '{ managedCompanies { tournaments { rounds { id } } } } } } } } }',
];
const cycleArb: fc.Arbitrary<Req> = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 1, max: 40 }),
      fc.constantFrom(...CYCLE_STEPS),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom('id', 'points', 'homeTeamGoals', '__typename'),
    )
    .map(([matchId, steps, length, leaf]) => {
      const path = Array.from({ length }, (_, i) => steps[i % steps.length]);
      return gqlPost(
        'graphql cycles',
        `{ match(id: ${matchId}) { ${path.map((f) => `${f} { `).join('')}${leaf}${' }'.repeat(length)} } }`,
      );
    }),
  fc
    .tuple(fc.constantFrom(...LIST_CHAINS), fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(100)), authArb)
    .map(([chain, take, auth]) =>
      gqlPost('graphql list products', `query($take: Int) { ${chain} }`, { variables: { take } }, auth),
    ),
);

/** A JSON array body: batched operations. */
const batchArb: fc.Arbitrary<Req> = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.constant({ query: '{ me { id } }' }),
        fc.constantFrom(...EXPENSIVE).map((f) => ({ query: `{ ${f} }` })),
        hostileJson,
      ),
      { minLength: 0, maxLength: 200 },
    ),
    authArb,
  )
  .map(([ops, auth]) => ({
    cat: 'graphql batched',
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ops),
    auth,
    graphql: true,
  }));

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it('GraphQL: deep, wide, alias- and fragment-multiplied documents', async () => {
    await hostile('abuse', abuseArb, 25, BASE_SEED + 4);
  });

  it('GraphQL: cycles and lists inside lists are refused before they run, fast', async () => {
    const sentOf = () => (counts.get('graphql cycles') ?? 0) + (counts.get('graphql list products') ?? 0);
    const before = sentOf();
    await hostile('cycles and lists', cycleArb, 25, BASE_SEED + 10);
    expect(sentOf() - before).toBe(25 * POOL);
  });

  it('GraphQL: batched operations (a JSON array body)', async () => {
    await hostile('batch', batchArb, 5, BASE_SEED + 5);
  });

  closingChecks(220);
});
