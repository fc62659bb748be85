// Hostile input (properties.ts says which properties hold) for every root Query and Mutation field, read from the
// built schema so that a new operation is covered without touching this file: arguments omitted, inline or as
// variables declared right or wrong, of the right shape with hostile contents or of the wrong one, extreme numbers
// and odd strings, with real, forged or garbage credentials and tenant headers.
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../../src/graphql/schema.ts';
import { authArb, tenantHeadersArb } from './credentials.ts';
import { BASE_SEED, closingChecks, hostile } from './properties.ts';
import { withInvitationJwt, type Req } from './requests.ts';
import { useHostileServer } from './server.ts';
import { hostileJson, hostileNumber, hostileString, nanishString, plausibleInt, plausibleString } from './values.ts';

/** Runs per root field (each run sends POOL requests). */
const FIELD_RUNS = 6;

const schema = getSchema();
const rootFields = (['query', 'mutation'] as const).flatMap((op) => {
  const type = op === 'query' ? schema.getQueryType() : schema.getMutationType();
  return type ? Object.values(type.getFields()).map((field) => ({ op, field })) : [];
});

/** A JS value for an input type: mostly of the right shape (with hostile contents), sometimes of the wrong one. */
function valueFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const wrong = depth > 3 ? hostileString : hostileJson;
  if (isNonNullType(type))
    return fc.oneof(
      { weight: 12, arbitrary: valueFor(type.ofType, depth) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  const right = (() => {
    if (isListType(type)) {
      return fc.oneof(
        { weight: 6, arbitrary: fc.array(valueFor(type.ofType, depth + 1), { maxLength: 5 }) },
        // Huge lists: ids far over any page, enough to overflow an SQL IN (...) that is not chunked.
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.integer({ min: 1_000, max: 60_000 }), plausibleInt)
            .map(([n, v]) => Array.from({ length: n }, (_, i) => (typeof v === 'number' ? v + i : v))),
        },
        // A single value where a list is expected (coerced to [v]).
        { weight: 1, arbitrary: valueFor(type.ofType, depth + 1) },
      );
    }
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const f of fields) shape[f.name] = valueFor(f.type, depth + 1);
      const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
      return fc
        .tuple(
          fc.record(shape, { requiredKeys: required }),
          fc.option(
            fc.dictionary(
              fc.constantFrom('unknownField', '__proto__', 'id', 'constructor', 'companyId', 'role'),
              hostileJson,
              { maxKeys: 2 },
            ),
            { nil: undefined, freq: 4 },
          ),
        )
        .map(([v, extra]) => ({ ...v, ...(extra ?? {}) }));
    }
    if (isEnumType(type)) {
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'manager',
            'MANAGER',
            'superuser',
            'Admin',
            'FINISHED',
            'home ',
            'null',
            '__typename',
          ),
        },
      );
    }
    if (isScalarType(type)) {
      switch (type.name) {
        case 'Int':
          return plausibleInt;
        case 'Float':
          return hostileNumber;
        case 'Boolean':
          return fc.boolean();
        case 'String':
        case 'ID':
          return plausibleString;
        default:
          return hostileJson; // DateTime, JSON, JSONObject
      }
    }
    return hostileJson;
  })();
  return fc.oneof(
    { weight: 5, arbitrary: right },
    { weight: 1, arbitrary: wrong },
    { weight: 1, arbitrary: nanishString },
  );
}

/** A JS value printed as a GraphQL literal; strings in enum positions print as names when they are names. */
function literal(v: unknown, type?: GraphQLInputType): string {
  const named = type ? getNullableType(type) : undefined;
  if (v === null || v === undefined) return 'null';
  // NaN and Infinity are no GraphQL literals: they go as they print.
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : String(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') {
    if (named && isEnumType(named) && /^[_A-Za-z]\w*$/.test(v)) return v;
    return JSON.stringify(v); // JSON escapes are GraphQL escapes; a lone surrogate escape is a syntax error there
  }
  if (Array.isArray(v)) {
    const inner = named && isListType(named) ? named.ofType : undefined;
    return `[${v.map((x) => literal(x, inner)).join(', ')}]`;
  }
  const fields = named && isInputObjectType(named) ? named.getFields() : {};
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${/^[_A-Za-z]\w*$/.test(k) ? k : JSON.stringify(k)}: ${literal(x, fields[k]?.type)}`)
    .join(', ')}}`;
}

/** A small selection of the return type: __typename and a few leaf fields, sometimes one nested object field. */
function selectionFor(type: GraphQLOutputType, depth = 0): fc.Arbitrary<string> {
  const named = getNamedType(type);
  if (isLeafType(named)) return fc.constant('');
  if (isUnionType(named) || !(isObjectType(named) || isInterfaceType(named))) return fc.constant('{ __typename }');
  const fields = Object.values(named.getFields()).filter((f) =>
    f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined),
  );
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type))).map((f) => f.name);
  const objects = fields.filter((f) => !isLeafType(getNamedType(f.type)));
  const nested =
    depth < 2 && objects.length
      ? fc.option(
          fc.constantFrom(...objects).chain((f) => selectionFor(f.type, depth + 1).map((sel) => `${f.name} ${sel}`)),
          { nil: '' },
        )
      : fc.constant('');
  return fc
    .tuple(fc.subarray(leaves, { maxLength: Math.min(4, leaves.length) }), nested)
    .map(([ls, n]) => `{ __typename ${ls.join(' ')} ${n} }`);
}

const WRONG_VARIABLE_TYPES = [
  'String',
  'Int',
  'Float',
  'Boolean',
  'ID',
  '[Int!]!',
  '[String]',
  'JSON',
  'NoSuchType',
  'Role',
  'IdRef',
];

/** Arguments of a field: each omitted, given inline, or given as a variable (declared right or wrong). */
function argumentsFor(args: readonly GraphQLArgument[]) {
  return fc
    .tuple(
      ...args.map((a) =>
        fc.tuple(
          fc.constantFrom<'omit' | 'inline' | 'variable' | 'wrongType' | 'undeclared'>(
            'omit',
            'inline',
            'inline',
            'variable',
            'variable',
            'variable',
            'wrongType',
            'undeclared',
          ),
          valueFor(a.type),
          fc.constantFrom(...WRONG_VARIABLE_TYPES),
        ),
      ),
    )
    .map((choices) => {
      const parts: string[] = [];
      const decls: string[] = [];
      const variables: Record<string, unknown> = {};
      choices.forEach(([how, value, wrongType], i) => {
        const a = args[i];
        if (how === 'omit') return;
        if (how === 'inline') return parts.push(`${a.name}: ${literal(value, a.type)}`);
        parts.push(`${a.name}: $${a.name}`);
        if (how !== 'undeclared') decls.push(`$${a.name}: ${how === 'wrongType' ? wrongType : String(a.type)}`);
        if (value !== undefined) variables[a.name] = value;
      });
      return {
        args: parts.length ? `(${parts.join(', ')})` : '',
        decls: decls.length ? `(${decls.join(', ')})` : '',
        variables,
      };
    });
}

function fieldRequest(op: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): fc.Arbitrary<Req> {
  return fc
    .record({
      a: argumentsFor(field.args),
      sel: selectionFor(field.type),
      auth: authArb,
      tenant: tenantHeadersArb,
      alias: fc.option(fc.constantFrom('x', 'a1', '__x'), { freq: 5, nil: undefined }),
      // Queries also over GET (mutations over GET are the envelope test's).
      transport: op === 'query' ? fc.constantFrom('post', 'post', 'post', 'get') : fc.constant('post'),
    })
    .map(({ a, sel, auth, tenant, alias, transport }) => {
      const query = `${op} Fuzz${a.decls} { ${alias ? `${alias}: ` : ''}${field.name}${a.args} ${sel} }`;
      const payload = withInvitationJwt(JSON.stringify({ query, variables: a.variables, operationName: 'Fuzz' }));
      if (transport === 'get' && payload.length < 6_000) {
        const p = JSON.parse(payload) as { query: string; variables: unknown };
        const qs = new URLSearchParams({
          query: p.query,
          variables: JSON.stringify(p.variables),
          operationName: 'Fuzz',
        });
        return {
          cat: `graphql ${op} ${field.name}`,
          method: 'GET',
          path: `/graphql?${qs}`,
          headers: { ...tenant, 'apollo-require-preflight': 'true' },
          auth,
          graphql: true,
        };
      }
      return {
        cat: `graphql ${op} ${field.name}`,
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', ...tenant },
        body: payload,
        auth,
        graphql: true,
      };
    });
}

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it('covers every REST route of the spec and every GraphQL root field of the schema', () => {
    expect(rootFields.length).toBeGreaterThanOrEqual(30);
    const names = rootFields.map((f) => f.field.name);
    for (const n of [
      'post',
      'postComments',
      'invitationByJwt',
      'companiesSearch',
      'myTournaments',
      'updateInvitation',
      'login',
      'ranking',
    ])
      expect(names).toContain(n);
  });

  describe(
    'GraphQL: every root Query and Mutation field with arguments of wrong types, extreme numbers and odd ' + 'strings',
    () => {
      for (const [i, { op, field }] of rootFields.entries()) {
        it(`${op} ${field.name}`, async () => {
          await hostile(`${op} ${field.name}`, fieldRequest(op, field), FIELD_RUNS, BASE_SEED + 100 + i);
        });
      }
    },
  );

  closingChecks(800);
});
