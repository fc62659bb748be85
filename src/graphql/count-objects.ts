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

interface Budgeted {
  objects?: ObjectBudget;
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as Promise<unknown>)?.then === 'function';

function countList(budget: ObjectBudget, list: unknown): unknown {
  if (Array.isArray(list)) budget.add(list.length);
  return list;
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
          const budget = context?.objects;
          if (!budget) return resolve(source, args, context, info);
          if (budget.error) throw budget.error;
          const result = resolve(source, args, context, info);
          // No named closure per call: the transpiler keeps function names (tsx's keepNames), at a cost per closure.
          return isPromise(result) ? result.then((list) => countList(budget, list)) : countList(budget, result);
        };
      } else {
        field.resolve = (source, args, context: Budgeted, info) => {
          context?.objects?.add(1);
          return resolve(source, args, context, info);
        };
      }
    }
  }
  return schema;
}
