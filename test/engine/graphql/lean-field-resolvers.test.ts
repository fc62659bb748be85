// Field resolvers called straight, without TypeGraphQL's generic handler (src/engine/graphql/lean-field-resolvers.ts):
// the method gets the same parameters it got before, responses are the same, and what the direct call cannot
// reproduce keeps TypeGraphQL's handler.
import 'reflect-metadata';
import { defaultFieldResolver, execute, isObjectType, parse, type GraphQLSchema } from 'graphql';
import {
  Arg,
  buildSchemaSync,
  Ctx,
  Field,
  FieldResolver,
  InputType,
  Info,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
  UseMiddleware,
} from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { leanFieldResolvers } from '../../../src/engine/graphql/lean-field-resolvers.ts';
import { getSchema } from '../../../src/graphql/schema.ts';

@InputType()
class Window {
  @Field(() => Int) from!: number;
}

@ObjectType({ simpleResolvers: true })
class Thing {
  @Field(() => Int) id!: number;
}

interface ThingRow {
  id: number;
}

const seen: unknown[][] = [];
const loaded = Promise.resolve(['loaded']);

@Resolver(() => Thing)
class ThingFields {
  @FieldResolver(() => [String]) label(
    @Root() t: ThingRow,
    @Ctx() ctx: { prefix: string },
    @Arg('upper', () => Boolean, { defaultValue: false }) upper: boolean,
  ) {
    seen.push([t, ctx, upper]);
    return [upper ? `${ctx.prefix}${t.id}`.toUpperCase() : `${ctx.prefix}${t.id}`];
  }
  @FieldResolver(() => [String]) pending(@Root('id') id: number, @Ctx('prefix') prefix: string) {
    seen.push([id, prefix]);
    return loaded;
  }
  @FieldResolver(() => String) path(@Info() info: { fieldName: string }) {
    return info.fieldName;
  }
  @FieldResolver(() => Int) windowed(@Root() t: ThingRow, @Arg('window', () => Window) window: Window) {
    // An input type arrives as an instance of its class only through TypeGraphQL's handler.
    return window instanceof Window ? t.id + window.from : -1;
  }
  @FieldResolver(() => Int)
  @UseMiddleware(async (_data, next) => ((await next()) as number) * 10)
  guarded(@Root() t: ThingRow) {
    return t.id;
  }
}

@Resolver()
class Things {
  @Query(() => [Thing]) things(): ThingRow[] {
    return [{ id: 1 }, { id: 2 }];
  }
}

const build = () => buildSchemaSync({ resolvers: [Things, ThingFields], validate: false });
const fieldOf = (schema: GraphQLSchema, type: string, field: string) => {
  const object = schema.getType(type);
  if (!isObjectType(object)) throw new Error(`${type} is not an object type`);
  return object.getFields()[field];
};

describe('leanFieldResolvers', () => {
  const query = parse(`{
    things {
      id label lower: label(upper: false) upper: label(upper: true) pending path windowed(window: { from: 5 }) guarded
    }
  }`);

  it('returns exactly what TypeGraphQL returned, for the rebound fields and the ones left alone', async () => {
    const contextValue = { prefix: 'thing-' };
    const before = await execute({ schema: build(), document: query, contextValue });
    const after = await execute({ schema: leanFieldResolvers(build()), document: query, contextValue });
    expect(before.errors).toBeUndefined();
    expect(after).toEqual(before);
    expect(after.data!.things).toEqual([
      {
        id: 1,
        label: ['thing-1'],
        lower: ['thing-1'],
        upper: ['THING-1'],
        pending: ['loaded'],
        path: 'path',
        windowed: 6,
        guarded: 10,
      },
      {
        id: 2,
        label: ['thing-2'],
        lower: ['thing-2'],
        upper: ['THING-2'],
        pending: ['loaded'],
        path: 'path',
        windowed: 7,
        guarded: 20,
      },
    ]);
  });

  it('calls the method with the root, the context and the arguments, and hands back what it returned', () => {
    const schema = leanFieldResolvers(build());
    seen.length = 0;
    const row = { id: 7 };
    const context = { prefix: 'p' };
    const info = { fieldName: 'pending' } as never;
    // TypeGraphQL's handler validates each @Arg asynchronously and returns a promise of its own.
    expect(fieldOf(schema, 'Thing', 'label').resolve!(row, { upper: true }, context, info)).toEqual(['P7']);
    expect(fieldOf(schema, 'Thing', 'pending').resolve!(row, {}, context, info)).toBe(loaded);
    expect(seen).toEqual([
      [row, context, true],
      [7, 'p'],
    ]);
    expect(seen[0][0]).toBe(row);
  });

  it("leaves TypeGraphQL's handler where an input type, a middleware or a typed root needs it", () => {
    const plain = build();
    const lean = leanFieldResolvers(build());
    for (const field of ['windowed', 'guarded']) {
      expect(fieldOf(lean, 'Thing', field).resolve!.toString()).toBe(
        fieldOf(plain, 'Thing', field).resolve!.toString(),
      );
    }
    expect(fieldOf(lean, 'Thing', 'label').resolve!.toString()).not.toBe(
      fieldOf(plain, 'Thing', 'label').resolve!.toString(),
    );
  });

  it("rebinds the hot fields of the service's own schema", () => {
    const schema = getSchema();
    // Wrapped by @cutoff and the object budget: the call reaches the method without a promise in between.
    const match = { id: 1, homeTeamId: 2, awayTeamId: 3 };
    const own = Promise.resolve([]);
    const ctx = {
      scope: { loaders: { ownPredictionsByMatch: { load: (id: number) => (id === 1 ? own : null) } } },
    };
    const info = { fieldNodes: [{ kind: 'Field', directives: [] }] } as never;
    expect(fieldOf(schema, 'Match', 'predictions').resolve!(match, { onlyMine: true }, ctx, info)).toBe(own);
    expect(fieldOf(schema, 'Match', 'id').resolve ?? defaultFieldResolver).toBe(defaultFieldResolver);
  });
});
