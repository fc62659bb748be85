// Executes a query like graphql-js, except that an object reached again under the same selection is completed once
// per request; on any error the operation runs again on graphql-jit.
// Why: docs/decisions/0002-complete-repeated-subtrees-once.md.
import {
  defaultFieldResolver,
  getArgumentValues,
  getNamedType,
  getNullableType,
  isCompositeType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { ObjectBudget } from '../../../app/object-budget.ts';
import { SHARED_JSON_MIN_BYTES, sharedObjectFactory } from './json.ts';

type Completion =
  | { kind: 'leaf'; nonNull: boolean; type: GraphQLLeafType }
  | { kind: 'list'; nonNull: boolean; item: Completion; countsObjects: boolean }
  | { kind: 'object'; nonNull: boolean; selection: Selection; shared: boolean };

interface FieldPlan {
  index: number;
  key: string;
  parentType: GraphQLObjectType;
  fieldNodes: FieldNode[];
  fieldDef: GraphQLField<unknown, unknown>;
  resolve: GraphQLFieldResolver<unknown, unknown>;
  /** The property a field without a resolver reads. */
  property: string | null;
  /** Arguments that name no variable, computed once with the plan. */
  constantArgs: Record<string, unknown> | null;
  /** A single object field (not a list), counted one by the object budget when it resolves. */
  countsOne: boolean;
  completion: Completion;
}

interface Selection {
  type: GraphQLObjectType;
  fields: FieldPlan[];
  /** About how many bytes of JSON one response object writes. */
  jsonBytes: number;
  /** A new response object with every key of the selection, in order: built whole, not grown key by key. */
  create: () => Record<string, unknown>;
}

/** An operation planned once per document: what each field resolves with and how its value completes. */
export interface SharedPlan {
  root: Selection;
  fieldCount: number;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
}

interface Shared {
  value: unknown;
  /** Objects the subtree counted against the budget; a reuse counts them again, as re-resolving it would. */
  objects: number;
}

/** Thrown inside a run to abandon it; never leaves this module. */
const ABANDON = new Error('abandoned: the operation runs again on the ordinary executor');

class Run {
  readonly args: (Record<string, unknown> | undefined)[];
  readonly infos: (GraphQLResolveInfo | undefined)[];
  /** Per selection, the completed subtree of each object reached under it. */
  readonly shared = new Map<Selection, Map<object, Shared>>();
  abandoned = false;
  readonly budget: ObjectBudget | undefined;

  constructor(
    readonly plan: SharedPlan,
    readonly schema: GraphQLSchema,
    readonly context: unknown,
    readonly variables: Record<string, unknown>,
  ) {
    this.args = new Array(plan.fieldCount);
    this.infos = new Array(plan.fieldCount);
    this.budget = (context as { scope?: { objects?: ObjectBudget } } | null)?.scope?.objects;
  }

  argsOf(field: FieldPlan): Record<string, unknown> {
    if (field.constantArgs) return field.constantArgs;
    return (this.args[field.index] ??= getArgumentValues(field.fieldDef, field.fieldNodes[0], this.variables));
  }

  /** One info per field and run: the only resolver that reads it (`@cutoff`) looks at its field nodes. */
  infoOf(field: FieldPlan): GraphQLResolveInfo {
    return (this.infos[field.index] ??= {
      fieldName: field.fieldDef.name,
      fieldNodes: field.fieldNodes,
      returnType: field.fieldDef.type,
      parentType: field.parentType,
      path: { prev: undefined, key: field.key, typename: field.parentType.name },
      schema: this.schema,
      fragments: this.plan.fragments,
      rootValue: undefined,
      operation: this.plan.operation,
      variableValues: this.variables,
    });
  }
}

/** An object budget's count held while a subtree completes, so that its reuse can count the same. */
interface Tally {
  objects: number;
}

// Primitives first: looking `then` up on a string or a number searches its prototype.
const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Promise<unknown>).then === 'function';

function fail(run: Run): never {
  run.abandoned = true;
  throw ABANDON;
}

/**
 * A response object (or list) waiting for values that arrive later: each is written into it as it arrives, and the
 * last one resolves it; the first failure rejects it. One promise per waiting object, where a promise per field
 * plus `Promise.all` cost about four promises and as many closures per field
 * (docs/decisions/0002-complete-repeated-subtrees-once.md).
 */
class Waiting {
  /** One for the caller's loop until it is sealed: a thenable that calls back at once cannot finish it early. */
  count = 1;
  readonly promise: Promise<unknown>;
  resolve!: (value: unknown) => void;
  reject!: (reason: unknown) => void;

  constructor(readonly target: object) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Writes `value` under `key` once it arrives. */
  await(key: string | number, value: Promise<unknown>) {
    this.count++;
    value.then((v) => this.fill(key, v), this.reject);
  }

  fill(key: string | number, value: unknown) {
    // Called from promise callbacks: a throw here would be a rejection nobody handles, which ends the process.
    try {
      (this.target as Record<string | number, unknown>)[key] = value;
    } catch (error) {
      this.reject(error);
      return;
    }
    if (--this.count === 0) this.resolve(this.target);
  }

  /** The caller's loop is done: the promise of the whole object (resolved already if every value came). */
  sealed(): Promise<unknown> {
    if (--this.count === 0) this.resolve(this.target);
    return this.promise;
  }

  /**
   * The caller's loop threw (a spent budget, a null where the type forbids one): nobody waits on this promise, and
   * its values still arriving reject it with the run abandoned. Unhandled, that rejection would end the process.
   */
  dropped() {
    this.promise.catch(() => {});
  }
}

/**
 * Completes a resolver's promised value into `waiting` under `key`. A rejected value abandons the run, as a
 * resolver that throws does: graphql-jit runs the operation again and reports the error with its path.
 */
function completeLater(
  run: Run,
  completion: Completion,
  value: Promise<unknown>,
  tally: Tally,
  waiting: Waiting,
  key: string | number,
) {
  waiting.count++;
  value.then(
    (resolved) => {
      let completed: unknown;
      try {
        completed = complete(run, completion, resolved, tally);
      } catch (error) {
        waiting.reject(error);
        return;
      }
      if (isPromise(completed)) completed.then((v) => waiting.fill(key, v), waiting.reject);
      else waiting.fill(key, completed);
    },
    () => {
      run.abandoned = true;
      waiting.reject(ABANDON);
    },
  );
}

function executeSelection(run: Run, selection: Selection, source: unknown, tally: Tally): unknown {
  const result = selection.create();
  let waiting: Waiting | null = null;
  try {
    for (const field of selection.fields) {
      if (run.abandoned) throw ABANDON;
      let value: unknown;
      // A field without a resolver reads its property, as graphql-jit inlines it (a function there is called).
      if (field.property !== null) value = (source as Record<string, unknown>)[field.property];
      if (field.property === null || typeof value === 'function') {
        try {
          value = field.resolve(source, run.argsOf(field), run.context, run.infoOf(field));
        } catch {
          fail(run);
        }
      }
      if (field.countsOne) tally.objects += 1;
      if (isPromise(value)) {
        completeLater(run, field.completion, value, tally, (waiting ??= new Waiting(result)), field.key);
        continue;
      }
      const completed = complete(run, field.completion, value, tally);
      if (isPromise(completed)) (waiting ??= new Waiting(result)).await(field.key, completed);
      else result[field.key] = completed;
    }
  } catch (error) {
    waiting?.dropped();
    throw error;
  }
  return waiting ? waiting.sealed() : result;
}

function complete(run: Run, completion: Completion, value: unknown, tally: Tally): unknown {
  if (value === null || value === undefined) return completion.nonNull ? fail(run) : null;
  if (value instanceof Error) fail(run);
  switch (completion.kind) {
    case 'leaf': {
      let serialized: unknown;
      try {
        serialized = completion.type.serialize(value);
      } catch {
        fail(run);
      }
      return serialized === null || serialized === undefined ? fail(run) : serialized;
    }
    case 'list': {
      if (!Array.isArray(value)) fail(run);
      if (completion.countsObjects) tally.objects += value.length;
      const items: unknown[] = new Array(value.length);
      let waiting: Waiting | null = null;
      try {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (isPromise(item)) {
            completeLater(run, completion.item, item, tally, (waiting ??= new Waiting(items)), i);
            continue;
          }
          const done = complete(run, completion.item, item, tally);
          if (isPromise(done)) (waiting ??= new Waiting(items)).await(i, done);
          else items[i] = done;
        }
      } catch (error) {
        waiting?.dropped();
        throw error;
      }
      return waiting ? waiting.sealed() : items;
    }
    case 'object':
      return completeObject(run, completion, value as object, tally);
  }
}

function completeObject(
  run: Run,
  completion: Extract<Completion, { kind: 'object' }>,
  value: object,
  tally: Tally,
): unknown {
  const { selection } = completion;
  if (selection.type.isTypeOf && selection.type.isTypeOf(value, run.context, undefined as never) !== true) fail(run);
  if (!completion.shared) return executeSelection(run, selection, value, tally);
  let reached = run.shared.get(selection);
  if (!reached) run.shared.set(selection, (reached = new Map()));
  const known = reached.get(value);
  if (known) {
    if (isPromise(known.value)) {
      return known.value.then((v) => {
        recount(run, known.objects, tally);
        return v;
      });
    }
    recount(run, known.objects, tally);
    return known.value;
  }
  const own: Tally = { objects: 0 };
  const entry: Shared = { value: executeSelection(run, selection, value, own), objects: 0 };
  reached.set(value, entry);
  const settle = (v: unknown) => {
    entry.value = v;
    entry.objects = own.objects;
    tally.objects += own.objects;
    return v;
  };
  if (isPromise(entry.value)) return (entry.value = entry.value.then(settle));
  return settle(entry.value);
}

/** A reused subtree counts what resolving it again would have counted. */
function recount(run: Run, objects: number, tally: Tally) {
  // A subtree settling after the run was abandoned: the budget now counts the executor that runs it again.
  if (run.abandoned) return;
  tally.objects += objects;
  if (!run.budget || objects === 0) return;
  try {
    run.budget.add(objects);
  } catch {
    fail(run);
  }
}

/**
 * Runs a planned query. Resolves to its data, or to null when the run was abandoned (an error, a null where the
 * type forbids one, the object budget spent): the caller then executes the operation on the ordinary executor.
 */
export async function executeShared(
  schema: GraphQLSchema,
  plan: SharedPlan,
  context: unknown,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const run = new Run(plan, schema, context, variables);
  const resolvedBefore = run.budget?.resolved ?? 0;
  try {
    return (await executeSelection(run, plan.root, undefined, { objects: 0 })) as Record<string, unknown>;
  } catch {
    // ABANDON, or an error thrown where graphql-js would report a field error (an `isTypeOf` that throws).
    run.abandoned = true;
    // The run again counts what this one counted; a budget this one spent stays spent.
    if (run.budget && !run.budget.error) run.budget.resolved = resolvedBefore;
    return null;
  }
}

/**
 * Plans `operation` of `document` for `executeShared`, or null when it is not a query this executor takes:
 * @skip/@include and introspection are left to the ordinary executor.
 */
export function planShared(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): SharedPlan | null {
  const queryType = schema.getQueryType();
  if (operation.operation !== 'query' || !queryType) return null;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  let fieldCount = 0;

  function selectionOf(
    type: GraphQLObjectType,
    sets: readonly SelectionSetNode[],
    underList: boolean,
    shared: boolean,
  ): Selection {
    const byKey = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    const collect = (set: SelectionSetNode) => {
      for (const node of set.selections) {
        if (node.directives?.some((d) => d.name.value === 'skip' || d.name.value === 'include'))
          throw new Unplannable();
        if (node.kind === Kind.FIELD) {
          const key = node.alias?.value ?? node.name.value;
          const nodes = byKey.get(key);
          if (nodes) nodes.push(node);
          else byKey.set(key, [node]);
        } else if (node.kind === Kind.INLINE_FRAGMENT) {
          if (!node.typeCondition || appliesTo(node.typeCondition.name.value, type)) collect(node.selectionSet);
        } else {
          const name = node.name.value;
          if (visited.has(name)) continue;
          visited.add(name);
          const fragment = fragments[name];
          if (fragment && appliesTo(fragment.typeCondition.name.value, type)) collect(fragment.selectionSet);
        }
      }
    };
    for (const set of sets) collect(set);
    const fields: FieldPlan[] = [];
    for (const [key, nodes] of byKey) {
      // A response key `__proto__` would set the object's prototype (graphql-js writes it to an object without one).
      if (key === '__proto__') throw new Unplannable();
      const name = nodes[0].name.value;
      if (name === '__schema' || name === '__type') throw new Unplannable();
      if (name === '__typename') {
        const typeName = type.name;
        fields.push(fieldPlan(type, key, nodes, TypeNameMetaFieldDef, () => typeName, false, underList));
        continue;
      }
      const fieldDef = type.getFields()[name];
      if (!fieldDef) throw new Unplannable();
      fields.push(fieldPlan(type, key, nodes, fieldDef, fieldDef.resolve ?? defaultFieldResolver, true, underList));
    }
    const keys = fields.map((field) => field.key);
    const jsonBytes = fields.reduce((sum, field) => sum + field.key.length + 4 + jsonBytesOf(field.completion), 2);
    // A large shared object is written once per response and copied where it repeats (shared-subtrees/json.ts); one
    // with a key `toJSON` (an alias) is written whole, that key being its own.
    const marked = shared && jsonBytes >= SHARED_JSON_MIN_BYTES && !keys.includes('toJSON');
    const create = marked ? sharedObjectFactory(keys) : objectFactory(keys);
    return { type, fields, jsonBytes, create };
  }

  function appliesTo(condition: string, type: GraphQLObjectType): boolean {
    const conditionType = schema.getType(condition);
    if (conditionType === type) return true;
    // Abstract conditions are the ordinary executor's (the schema has none today).
    if (conditionType && !isObjectType(conditionType)) throw new Unplannable();
    return false;
  }

  function fieldPlan(
    parentType: GraphQLObjectType,
    key: string,
    fieldNodes: FieldNode[],
    fieldDef: FieldPlan['fieldDef'],
    resolve: FieldPlan['resolve'],
    counted: boolean,
    underList: boolean,
  ): FieldPlan {
    const usesVariables = fieldNodes[0].arguments?.some((arg) => namesVariable(arg.value));
    const single = !isListType(getNullableType(fieldDef.type));
    return {
      index: fieldCount++,
      key,
      parentType,
      fieldNodes,
      fieldDef,
      resolve,
      // The root has no source object to read from.
      property: resolve === defaultFieldResolver && parentType !== queryType ? fieldDef.name : null,
      constantArgs: usesVariables ? null : getArgumentValues(fieldDef, fieldNodes[0], {}),
      countsOne: counted && single && isCompositeType(getNamedType(fieldDef.type)),
      completion: completionOf(fieldDef.type, fieldNodes, underList, true),
    };
  }

  function completionOf(
    type: GraphQLOutputType,
    fieldNodes: FieldNode[],
    underList: boolean,
    direct: boolean,
  ): Completion {
    const nonNull = isNonNullType(type);
    const inner = getNullableType(type);
    if (isListType(inner)) {
      const item = completionOf(inner.ofType, fieldNodes, true, false);
      // The budget counts a field's own list, not the lists inside it (src/graphql/count-objects.ts).
      return { kind: 'list', nonNull, item, countsObjects: direct && isCompositeType(getNamedType(inner)) };
    }
    if (isLeafType(inner)) return { kind: 'leaf', nonNull, type: inner };
    if (!isObjectType(inner)) throw new Unplannable();
    const sets = fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    // Only a single object under a list can be reached twice: list items are distinct rows.
    const shared = underList && direct;
    return { kind: 'object', nonNull, selection: selectionOf(inner, sets, underList, shared), shared };
  }

  try {
    const root = selectionOf(queryType, [operation.selectionSet], false, false);
    return { root, fieldCount, operation, fragments };
  } catch (error) {
    if (error instanceof Unplannable) return null;
    throw error;
  }
}

class Unplannable extends Error {}

/** A rough size of a value's JSON: what decides whether a shared object is worth writing once. */
function jsonBytesOf(completion: Completion): number {
  switch (completion.kind) {
    case 'leaf':
      return 8;
    case 'list':
      return completion.item.kind === 'leaf' ? 16 : 64;
    case 'object':
      return completion.selection.jsonBytes;
  }
}

/**
 * A function returning `{ key1: null, key2: null, ... }`: an object literal is allocated at its final size with
 * its keys in place, where `{}` grown key by key reallocates its property store as it goes. The keys are names
 * the GraphQL parser accepted, quoted all the same.
 */
function objectFactory(keys: string[]): () => Record<string, unknown> {
  const literal = keys.map((key) => `${JSON.stringify(key)}: null`).join(', ');
  return new Function(`return { ${literal} };`) as () => Record<string, unknown>;
}

function namesVariable(value: ValueNode): boolean {
  switch (value.kind) {
    case Kind.VARIABLE:
      return true;
    case Kind.LIST:
      return value.values.some(namesVariable);
    case Kind.OBJECT:
      return value.fields.some((field) => namesVariable(field.value));
    default:
      return false;
  }
}
