// The shared-subtree executor (src/engine/graphql/shared-subtrees/executor.ts) on a small graphql-js schema: it
// responds as graphql-js does, completes an object reached again under the same selection once, counts the object
// budget as re-resolving would, and gives up (null) on any error so that the ordinary executor responds.
import {
  buildSchema,
  execute,
  GraphQLError,
  GraphQLObjectType,
  parse,
  type GraphQLFieldResolver,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { ObjectBudget } from '../../../../src/app/object-budget.ts';
import { countResolvedObjects } from '../../../../src/graphql/count-objects.ts';
import { responseJson } from '../../../../src/engine/graphql/shared-subtrees/json.ts';
import { executeShared, planShared } from '../../../../src/engine/graphql/shared-subtrees/executor.ts';

interface Company {
  id: number;
  name: string;
}
interface User {
  id: number;
  name: string;
  companyId: number;
}
interface Prediction {
  id: number;
  userId: number;
  goals: number | null;
}

const companies: Company[] = [{ id: 1, name: 'Acme' }];
const users: User[] = [
  { id: 1, name: 'Ana', companyId: 1 },
  { id: 2, name: 'Bo', companyId: 1 },
];
// Ana predicted three times, Bo once: Ana's subtree is reached three times under `predictions`.
const predictions: Prediction[] = [
  { id: 1, userId: 1, goals: 2 },
  { id: 2, userId: 2, goals: 0 },
  { id: 3, userId: 1, goals: null },
  { id: 4, userId: 1, goals: 1 },
];

const SDL = `
  type Query { predictions(first: Int = 10): [Prediction!]! me: User! broken: [Prediction!]! }
  type Prediction { id: Int! goals: Int user: User! label(prefix: String!): String! }
  type User { id: Int! name: String! company: Company! friends: [User!]! }
  type Company { id: Int! name: String! users: [User!]! }
`;

/** graphql-js's schema from SDL, with resolvers set on its fields. */
function schemaOf(sdl: string, resolvers: Record<string, Record<string, GraphQLFieldResolver<never, never>>>) {
  const schema = buildSchema(sdl);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    for (const [name, resolve] of Object.entries(fields))
      type.getFields()[name].resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
  }
  return schema;
}

/** A schema whose resolvers count their calls and return the same row objects, as the loaders do. */
function schemaWithCalls(options: { failOn?: string; rejectOn?: string } = {}) {
  const calls: Record<string, number> = {};
  const count = (name: string) => {
    calls[name] = (calls[name] ?? 0) + 1;
    if (options.failOn === name) throw new GraphQLError(`${name} failed`);
  };
  const schema = schemaOf(SDL, {
    Query: {
      predictions: (_: unknown, args: { first: number }) => Promise.resolve(predictions.slice(0, args.first)),
      me: () => users[0],
      broken: () => predictions,
    },
    Prediction: {
      user: (p: Prediction) => (count('Prediction.user'), Promise.resolve(users.find((u) => u.id === p.userId))),
      label: (p: Prediction, args: { prefix: string }) => `${args.prefix}${p.id}`,
    },
    User: {
      name: (u: User) => (count('User.name'), u.name),
      company: (u: User) => (count('User.company'), companies.find((c) => c.id === u.companyId)),
      friends: (u: User) => users.filter((f) => f.id !== u.id),
    },
    Company: {
      name: (c: Company) => {
        count('Company.name');
        const rejects = options.rejectOn === 'Company.name';
        return rejects ? Promise.reject(new GraphQLError('Company.name rejected')) : Promise.resolve(c.name);
      },
      users: (c: Company) => users.filter((u) => u.companyId === c.id),
    },
  });
  return { schema: countResolvedObjects(schema), calls };
}

const operationOf = (document: DocumentNode) =>
  document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;

async function both(schema: GraphQLSchema, source: string, variables: Record<string, unknown> = {}) {
  const document = parse(source);
  const plan = planShared(schema, document, operationOf(document));
  expect(plan).not.toBeNull();
  const sharedBudget = new ObjectBudget(10_000);
  const shared = await executeShared(schema, plan!, { scope: { objects: sharedBudget } }, variables);
  const referenceBudget = new ObjectBudget(10_000);
  const contextValue = { scope: { objects: referenceBudget } };
  const reference = await execute({ schema, document, contextValue, variableValues: variables });
  return { shared, reference, sharedBudget, referenceBudget };
}

const DEEP = `
  query($n: Int) {
    predictions(first: $n) {
      id goals label(prefix: "p")
      ...Who
      again: user { id company { name } }
    }
    me { __typename id company { id } }
  }
  fragment Who on Prediction { user { id name company { id name users { id } } friends { name } } }
`;

describe('shared-subtree executor', () => {
  it('responds as graphql-js does: fragments, aliases, variables, defaults, __typename, key order', async () => {
    const { schema } = schemaWithCalls();
    for (const variables of [{}, { n: 2 }]) {
      const { shared, reference } = await both(schema, DEEP, variables);
      expect(reference.errors).toBeUndefined();
      expect(JSON.stringify(shared)).toBe(JSON.stringify(reference.data));
    }
  });

  it('completes an object reached again under the same selection once, and shares it in the response', async () => {
    const { schema, calls } = schemaWithCalls();
    const document = parse(DEEP);
    const data = (await executeShared(schema, planShared(schema, document, operationOf(document))!, {}, {})) as {
      predictions: { user: unknown; again: unknown }[];
    };
    // Four predictions resolve their user (twice each: `user` and `again`), but Ana's and Bo's subtrees
    // complete once per selection: names once per user, companies once per user and selection.
    expect(calls['Prediction.user']).toBe(8);
    expect(calls['User.name']).toBe(2 + 2); // Who's user (Ana, Bo) and their friends' names (Bo, Ana)
    expect(calls['User.company']).toBe(2 + 2 + 1); // under `user` and `again` for each user, and under `me`
    expect(calls['Company.name']).toBe(2); // one company, under two selections
    expect(data.predictions[0].user).toBe(data.predictions[2].user);
    expect(data.predictions[0].user).not.toBe(data.predictions[1].user);
  });

  it('builds large shared objects to be written once, and the response is graphql-js bytes to the byte', async () => {
    const { schema } = schemaWithCalls();
    const { shared, reference } = await both(schema, DEEP);
    const json = responseJson(shared);
    // A Buffer: some subtree was written once and copied (the users under `user`; `again` is too small to mark).
    expect(Buffer.isBuffer(json)).toBe(true);
    expect((json as Buffer).equals(Buffer.from(JSON.stringify(reference.data)))).toBe(true);
    const data = shared as { predictions: { user: object; again: object }[] };
    expect(Object.getPrototypeOf(data.predictions[0].user)).not.toBe(Object.prototype);
    expect(Object.getPrototypeOf(data.predictions[0].again)).toBe(Object.prototype);
  });

  it('returns a shared object with a key named toJSON, sync or async, as graphql-js does', async () => {
    const { schema } = schemaWithCalls();
    // Company.name resolves later; the company is shared under each prediction's user and large enough to mark.
    const source = `{
      predictions { id user { toJSON: name company { toJSON: name id name users { id } } friends { toJSON: id } } }
    }`;
    const { shared, reference } = await both(schema, source);
    expect(reference.errors).toBeUndefined();
    expect(shared).not.toBeNull();
    expect(JSON.stringify(shared)).toBe(JSON.stringify(reference.data));
    expect(Buffer.from(responseJson(shared)).equals(Buffer.from(JSON.stringify(reference.data)))).toBe(true);
  });

  it('leaves a response key __proto__ to the ordinary executor', () => {
    const { schema } = schemaWithCalls();
    const document = parse('{ me { __proto__: name id } }');
    expect(planShared(schema, document, operationOf(document))).toBeNull();
  });

  it('counts the object budget exactly as resolving every repeat would', async () => {
    const { schema } = schemaWithCalls();
    const { sharedBudget, referenceBudget } = await both(schema, DEEP);
    expect(referenceBudget.resolved).toBeGreaterThan(20);
    expect(sharedBudget.resolved).toBe(referenceBudget.resolved);
  });

  it('gives up on an error in a shared subtree, the budget as it was before', async () => {
    const { schema, calls } = schemaWithCalls({ failOn: 'Company.name' });
    const document = parse(DEEP);
    const budget = new ObjectBudget(10_000);
    budget.add(5);
    expect(
      await executeShared(
        schema,
        planShared(schema, document, operationOf(document))!,
        { scope: { objects: budget } },
        {},
      ),
    ).toBeNull();
    expect(budget.resolved).toBe(5);
    // Fields waiting on a promise when the run was abandoned resolve nothing more.
    const before = { ...calls };
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual(before);
  });

  it('gives up on a promise that rejects, deep under lists, with no rejection left unhandled', async () => {
    const { schema } = schemaWithCalls({ rejectOn: 'Company.name' });
    const document = parse(DEEP);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const budget = new ObjectBudget(10_000);
      const plan = planShared(schema, document, operationOf(document))!;
      expect(await executeShared(schema, plan, { scope: { objects: budget } }, {})).toBeNull();
      expect(budget.resolved).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    // The same document on the same schema, nothing rejecting, responds: the failure belonged to that run alone.
    const fine = schemaWithCalls().schema;
    expect(await executeShared(fine, planShared(fine, document, operationOf(document))!, {}, {})).not.toBeNull();
  });

  it('gives up on a null where the type forbids one, and on a spent budget (which stays spent)', async () => {
    const { schema } = schemaWithCalls();
    const nulls = parse('{ broken { user { id } } }');
    const withNull = schemaWithCalls().schema;
    (withNull.getType('Query') as GraphQLObjectType).getFields().broken.resolve = () => [{ id: 9, userId: 404 }];
    expect(await executeShared(withNull, planShared(withNull, nulls, operationOf(nulls))!, {}, {})).toBeNull();

    const document = parse(DEEP);
    const budget = new ObjectBudget(6);
    expect(
      await executeShared(
        schema,
        planShared(schema, document, operationOf(document))!,
        { scope: { objects: budget } },
        {},
      ),
    ).toBeNull();
    expect(budget.error?.message).toContain('GRAPHQL_MAX_OBJECTS');
  });

  it('gives up on a field that fails at once after a sibling that waits, with nothing left unhandled', async () => {
    // `user` waits on a promise; then `id`, non-null, is missing. The run throws before anyone waits on the
    // prediction's response object, and `user` arriving afterwards rejects it: that rejection must be handled.
    const schema = schemaWithCalls().schema;
    (schema.getType('Query') as GraphQLObjectType).getFields().broken.resolve = () => [{ userId: 1 }];
    const document = parse('{ broken { user { id name } id } }');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(await executeShared(schema, planShared(schema, document, operationOf(document))!, {}, {})).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('a thenable that resolves at once does not finish its object before a sibling that waits', async () => {
    const schema = schemaOf('type Query { item: Item } type Item { a: Int! b: Int! c: [Int!]! }', {
      Query: { item: () => ({}) },
      Item: {
        a: () => ({ then: (resolve: (v: number) => void) => resolve(1) }),
        b: () => new Promise((resolve) => setTimeout(() => resolve(2), 10)),
        c: () => [{ then: (resolve: (v: number) => void) => resolve(3) }, Promise.resolve(4)],
      },
    });
    const document = parse('{ item { a b c } }');
    const shared = await executeShared(schema, planShared(schema, document, operationOf(document))!, {}, {});
    expect(shared).toEqual({ item: { a: 1, b: 2, c: [3, 4] } });
    expect((await execute({ schema, document })).data).toEqual(shared);
  });

  it('leaves @skip, @include and introspection to the ordinary executor', () => {
    const { schema } = schemaWithCalls();
    for (const source of [
      '{ me { id @skip(if: true) } }',
      'query($a: Boolean!) { me { ... @include(if: $a) { id } } }',
      '{ __schema { queryType { name } } }',
      '{ __type(name: "User") { name } }',
    ]) {
      const document = parse(source);
      expect(planShared(schema, document, operationOf(document))).toBeNull();
    }
  });
});
