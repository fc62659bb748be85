// Objects resolved per request, counted as execution goes: the guard behind the cost estimate. Once a request has
// resolved more than GRAPHQL_MAX_OBJECTS, every further object field throws at once, so no more loads start and
// the request ends with RESPONSE_TOO_LARGE instead of growing the process until it dies.
import { defaultFieldResolver, getNamedType, getNullableType, isCompositeType, isListType, isObjectType, type GraphQLSchema } from 'graphql';
import { formatCount, responseTooLarge, type DomainError } from '../domain/errors.ts';

export class ObjectBudget {
  resolved = 0;
  /** Set once the budget is spent; thrown by every object field from then on. */
  error: DomainError | null = null;

  constructor(readonly max: number) {}

  /** Objects this request may still resolve. */
  get left(): number {
    return Math.max(0, this.max - this.resolved);
  }

  add(count: number): void {
    this.resolved += count;
    if (this.resolved > this.max && !this.error) {
      this.error = responseTooLarge(
        `the answer holds more than ${formatCount(this.max)} objects (GRAPHQL_MAX_OBJECTS): execution stopped; ask for fewer nested lists, or pass take`,
        'objects',
      );
    }
    if (this.error) throw this.error;
  }
}

interface Budgeted {
  objects?: ObjectBudget;
}

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as Promise<unknown>)?.then === 'function';

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
          const counted = (list: unknown) => {
            if (Array.isArray(list)) budget.add(list.length);
            return list;
          };
          const result = resolve(source, args, context, info);
          return isPromise(result) ? result.then(counted) : counted(result);
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
