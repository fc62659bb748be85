// The derivation itself, without a server: what each GraphQL shape becomes in the REST JSON Schemas. The contract
// and strictness tests hold real responses to the result; this file holds the result to the GraphQL schema, so a
// derivation that grows lax (an enum as a plain string, an optional key, an open object) fails here.
import { buildSchema, parse, type GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.ts';
import { REST_ROUTES, routeKey } from '../../src/rest/route-table.ts';
import { restSchemas } from '../../src/rest/schema-from-operations.ts';

type Schema = Record<string, any>;
const routes = Object.fromEntries(REST_ROUTES.map((r) => [routeKey(r), r]));
const { $defs, responses } = restSchemas(getSchema(), routes) as {
  $defs: Record<string, Schema>;
  responses: Record<string, Schema>;
};

/** Every object schema inside `schema`, $defs not followed. */
function objects(schema: unknown, out: Schema[] = []): Schema[] {
  if (Array.isArray(schema)) for (const s of schema) objects(s, out);
  else if (schema && typeof schema === 'object') {
    if ((schema as Schema).type === 'object' && (schema as Schema).properties) out.push(schema as Schema);
    for (const v of Object.values(schema)) objects(v, out);
  }
  return out;
}

describe('the REST schemas derived from the stored operations', () => {
  it('name one response per route of the table, an array where the root field is a list', () => {
    expect(Object.keys(responses).sort()).toEqual(REST_ROUTES.map(routeKey).sort());
    expect(responses['GET /posts/{id}']).toEqual({ $ref: '#/$defs/Post' });
    expect(responses['GET /posts/{postId}/comments']).toEqual({
      type: 'array',
      items: { $ref: '#/$defs/PostComment' },
    });
    expect(Object.keys($defs)).toEqual(expect.arrayContaining(['Area', 'UserFull', 'CompanyFull', 'Error']));
  });

  it('require every selected key and allow no other, in every object', () => {
    const all = objects($defs);
    expect(all.length).toBeGreaterThan(30);
    for (const o of all) {
      expect(o.additionalProperties).toBe(false);
      expect(o.required).toEqual(Object.keys(o.properties));
    }
  });

  it('carry the GraphQL types: nullability, enums, date-times, integers, cut-off lists, descriptions', () => {
    const match = $defs.Match ?? objects($defs.MyTournament).find((o) => 'venue' in o.properties)!;
    const statuses = (getSchema().getType('MatchStatus') as GraphQLEnumType).getValues().map((v) => v.name);
    expect(statuses.length).toBeGreaterThan(5);
    expect(match.properties.status).toMatchObject({ enum: statuses });
    expect(match.properties.homeTeamGoals.anyOf).toEqual([{ type: 'integer' }, { type: 'null' }]);
    expect(match.properties.id).toMatchObject({ type: 'integer' });
    expect(match.properties.date).toMatchObject({ type: 'string', format: 'date-time' });
    const user = $defs.UserFull;
    expect(new Set(user.properties.role.enum)).toEqual(new Set(['player', 'admin', 'reseller', 'manager']));
    expect(user.properties.posts).toMatchObject({ type: 'array', maxItems: 0 });
    expect(user.properties.deletedAt.anyOf[1]).toEqual({ type: 'null' });
    expect(user.properties.email.description).toEqual(expect.any(String));
    expect(user.properties.company.properties.loginStrategy.enum).toEqual([0, 1]);
  });

  it('refuse what they cannot describe: an unknown scalar, @skip, a root field the operation lacks', () => {
    const sdl = buildSchema('scalar Odd type Thing { id: Int!, odd: Odd, name: String } type Query { thing: Thing! }');
    const routeResponse = (query: string, field = 'thing') => ({ document: parse(query), field, schema: 'Thing' });
    expect(restSchemas(sdl, { r: routeResponse('{ thing { id name } }') }).$defs.Thing).toMatchObject({
      required: ['id', 'name'],
      properties: { id: { type: 'integer' }, name: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    });
    expect(() => restSchemas(sdl, { r: routeResponse('{ thing { odd } }') })).toThrow(/scalar Odd/);
    expect(() => restSchemas(sdl, { r: routeResponse('{ thing { name @skip(if: true) } }') })).toThrow(/@skip/);
    expect(() => restSchemas(sdl, { r: routeResponse('{ thing { id } }', 'other') })).toThrow(/no root field other/);
  });
});
