// Counts the objects a GraphQL request resolves against its scope's object budget (src/app/object-budget.ts),
// field by field as execution goes: the guard behind the cost estimate.
import {
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { ObjectBudget } from '../app/object-budget.ts';

/** The GraphQL context (src/graphql/context.ts), or none: a schema run without a request counts nothing. */
interface Budgeted {
  scope?: { objects?: ObjectBudget };
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as Promise<unknown>)?.then === 'function';

function countList(budget: ObjectBudget, list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  // A list that arrives after the execution was abandoned goes no further.
  const halt = budget.halted();
  if (halt) return halt;
  budget.add(list.length);
  return list;
}

/** Runs `go` once the budget lets execution go on, asking again after each pause (another may have begun). */
function afterPauses<T>(budget: ObjectBudget, go: () => T): T | Promise<T> {
  const pause = budget.pause();
  return pause ? pause.then(() => afterPauses(budget, go)) : go();
}

/**
 * A spent budget refuses with a rejected promise, never a throw: when one item of a list throws where its type
 * forbids a null, graphql-js stops completing the list and leaves its earlier items' promises unwatched; their own
 * refusals would then be unhandled rejections, which end the process.
 */
function refused(budget: ObjectBudget, count: number): Promise<never> | null {
  try {
    budget.add(count);
    return null;
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * Wraps every field whose type is an object or a list of objects: a single object counts one before it resolves,
 * a list its length once it has. Scalar fields stay unwrapped (graphql-jit reads them inline).
 */
export function countResolvedObjects(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isCompositeType(getNamedType(field.type))) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      if (isListType(getNullableType(field.type))) {
        field.resolve = (source, args, context: Budgeted, info) => {
          const budget = context?.scope?.objects;
          if (!budget) return resolve(source, args, context, info);
          const pause = budget.pause();
          if (pause)
            return pause.then(() => afterPauses(budget, () => listed(budget, resolve(source, args, context, info))));
          if (budget.error) return Promise.reject(budget.error);
          return listed(budget, resolve(source, args, context, info));
        };
      } else {
        field.resolve = (source, args, context: Budgeted, info) => {
          const budget = context?.scope?.objects;
          if (!budget) return resolve(source, args, context, info);
          const pause = budget.pause();
          if (pause)
            return pause.then(() =>
              afterPauses(budget, () => refused(budget, 1) ?? resolve(source, args, context, info)),
            );
          return refused(budget, 1) ?? resolve(source, args, context, info);
        };
      }
    }
  }
  return schema;
}

/** A list a resolver returned (or its promise), counted against the budget once it is known. */
function listed(budget: ObjectBudget, result: unknown): unknown {
  // No named closure per call: the transpiler keeps function names (tsx's keepNames), at a cost per closure.
  if (isPromise(result)) return result.then((list) => countList(budget, list));
  return (Array.isArray(result) && refused(budget, result.length)) || result;
}
