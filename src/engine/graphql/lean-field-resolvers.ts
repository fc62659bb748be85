// Field resolvers that take only @Root, @Ctx, @Info and scalar @Arg are called straight, past TypeGraphQL's generic
// handler and its work per call. Why: docs/decisions/0004-call-field-resolvers-past-typegraphql.md.
import { GraphQLScalarType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Picker = (root: unknown, args: Record<string, unknown>, context: unknown, info: unknown) => unknown;

interface ParamMetadata {
  kind: string;
  index: number;
  propertyName?: string;
  name?: string;
  getType?: () => unknown;
  validateFn?: unknown;
  validateSettings?: unknown;
}

/** A parameter read without TypeGraphQL's conversion and validation, or null when it needs them. */
function pickerFor(param: ParamMetadata): Picker | null {
  const property = param.propertyName;
  switch (param.kind) {
    case 'root':
      // A typed @Root is converted into an instance of its class: left to TypeGraphQL.
      if (param.getType) return null;
      return property ? (root) => (root as Record<string, unknown>)[property] : (root) => root;
    case 'context':
      return property
        ? (_r, _a, context) => (context as Record<string, unknown>)[property]
        : (_r, _a, context) => context;
    case 'info':
      return (_r, _a, _c, info) => info;
    case 'arg': {
      // Only scalars pass through TypeGraphQL unchanged; input types become class instances.
      const type = param.getType?.();
      const scalar = type === Boolean || type === String || type === Number || type instanceof GraphQLScalarType;
      if (!scalar || param.validateFn || param.validateSettings) return null;
      const name = param.name!;
      return (_r, args) => args[name];
    }
    default:
      return null;
  }
}

/** Replaces TypeGraphQL's handler on each eligible field resolver of `schema`; the others keep theirs. */
export function leanFieldResolvers(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  const typeNames = new Map(storage.objectTypes.map((type) => [type.target, type.name]));
  const instances = new Map<unknown, Record<string, (...params: unknown[]) => unknown>>();
  for (const resolver of storage.fieldResolvers) {
    if (resolver.kind !== 'external' || resolver.middlewares?.length || resolver.roles) continue;
    const type = schema.getType(typeNames.get(resolver.getObjectType!()) ?? '');
    if (!isObjectType(type)) continue;
    const field = type.getFields()[resolver.schemaName];
    if (!field?.resolve) continue;
    const params = [...((resolver.params ?? []) as ParamMetadata[])].sort((a, b) => a.index - b.index);
    const pickers = params.map(pickerFor);
    if (pickers.some((picker) => picker === null)) continue;
    const Target = resolver.target as new () => Record<string, (...params: unknown[]) => unknown>;
    const instance = instances.get(Target) ?? new Target();
    instances.set(Target, instance);
    const method = instance[resolver.methodName];
    field.resolve = bind(instance, method, pickers as Picker[]);
  }
  return schema;
}

function bind(
  instance: object,
  method: (...params: unknown[]) => unknown,
  pickers: Picker[],
): GraphQLFieldResolver<unknown, unknown> {
  const [first, second, third] = pickers;
  // The common arities without an arguments array.
  switch (pickers.length) {
    case 0:
      return () => method.call(instance);
    case 1:
      return (root, args, context, info) => method.call(instance, first(root, args, context, info));
    case 2:
      return (root, args, context, info) =>
        method.call(instance, first(root, args, context, info), second(root, args, context, info));
    case 3:
      return (root, args, context, info) =>
        method.call(
          instance,
          first(root, args, context, info),
          second(root, args, context, info),
          third(root, args, context, info),
        );
    default:
      return (root, args, context, info) =>
        method.apply(
          instance,
          pickers.map((pick) => pick(root, args, context, info)),
        );
  }
}
