// The JSON Schemas (2020-12) of the REST responses, derived from the stored operations over the GraphQL schema: a
// body is exactly the `data.<field>` of its operation, so the operation's selection and the schema's types say
// every key, its type, its nullability and its enum values. Every selected key is required (GraphQL always
// returns it; a nullable one as null), and additionalProperties is false, so a key no operation selects (a
// secret, say) fails the contract.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';
import { ERROR_BODY, EXCEPTIONS } from './schema-exceptions.ts';

export type Schema = Record<string, unknown>;

const SCALARS: Record<string, Schema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
  JSONObject: { type: 'object' },
};

const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });
const orNull = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
/** A fragment's schema is named as the fragment without the stored operations' `Rest` prefix. */
const defName = (fragment: string) => fragment.replace(/^Rest/, '');
/** A named schema carries its type's description; inline objects leave it to the key's. */
const named = (type: GraphQLObjectType, shape: Schema): Schema =>
  type.description ? { description: type.description, ...shape } : shape;

/** What a route's response is: its stored operation, the operation's root field, and its object schema's name. */
export interface RouteResponse {
  document: DocumentNode;
  field: string;
  schema: string;
}

export interface RestSchemas {
  /** The named schemas: one per fragment that stands as an object's whole selection, one per route, Error. */
  $defs: Record<string, Schema>;
  /** The schema of each route's 200 body, by the key its caller gave. */
  responses: Record<string, Schema>;
}

/** The schemas of the routes' responses, by the routes' keys. Throws on a selection it cannot describe. */
export function restSchemas(schema: GraphQLSchema, routes: Record<string, RouteResponse>): RestSchemas {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { document } of Object.values(routes))
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const $defs: Record<string, Schema> = {};

  /** The field nodes of a selection by response key, fragments spread in, as GraphQL merges them. */
  function fieldsOf(selections: readonly SelectionNode[], byKey = new Map<string, FieldNode[]>()) {
    for (const s of selections) {
      if (s.kind === Kind.FIELD) {
        if (s.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip'))
          throw new Error(`@include/@skip on ${s.name.value}: a REST key is always there`);
        const key = s.alias?.value ?? s.name.value;
        byKey.set(key, [...(byKey.get(key) ?? []), s]);
      } else if (s.kind === Kind.FRAGMENT_SPREAD) fieldsOf(fragmentNamed(s.name.value).selectionSet.selections, byKey);
      else fieldsOf(s.selectionSet.selections, byKey);
    }
    return byKey;
  }

  function fragmentNamed(name: string) {
    const fragment = fragments.get(name);
    if (!fragment) throw new Error(`fragment ${name} is not in the stored operations`);
    return fragment;
  }

  /** An object: a $ref where the whole selection is one fragment, else its keys inline. */
  function objectOf(type: GraphQLObjectType, selections: readonly SelectionNode[]): Schema {
    if (selections.length === 1 && selections[0].kind === Kind.FRAGMENT_SPREAD) {
      const name = defName(selections[0].name.value);
      $defs[name] ??= named(type, objectShape(type, fragmentNamed(selections[0].name.value).selectionSet.selections));
      return ref(name);
    }
    return objectShape(type, selections);
  }

  function objectShape(type: GraphQLObjectType, selections: readonly SelectionNode[]): Schema {
    const properties: Record<string, Schema> = {};
    for (const [key, nodes] of fieldsOf(selections)) {
      const field = type.getFields()[nodes[0].name.value];
      if (!field) throw new Error(`${type.name} has no field ${nodes[0].name.value}`);
      const own = EXCEPTIONS[`${type.name}.${field.name}`] ?? typeOf(field.type, nodes);
      const description = [field.description, own.description].filter(Boolean).join(' ');
      properties[key] = { ...own, ...(description ? { description } : {}) };
    }
    return {
      type: 'object',
      required: Object.keys(properties),
      properties,
      additionalProperties: false,
    };
  }

  function typeOf(type: GraphQLOutputType, nodes: FieldNode[]): Schema {
    return isNonNullType(type) ? nonNull(type.ofType, nodes) : orNull(nonNull(type, nodes));
  }

  /** The schema of a value of the type, null aside. */
  function nonNull(type: GraphQLOutputType, nodes: FieldNode[]): Schema {
    if (isListType(type)) {
      // Cut off in every copy of the field (src/graphql/schema.ts `@cutoff`): always [].
      if (nodes.every((n) => n.directives?.some((d) => d.name.value === 'cutoff')))
        return { type: 'array', maxItems: 0, description: 'Cut off at this depth: always [] (docs/rest.md).' };
      return { type: 'array', items: typeOf(type.ofType, nodes) };
    }
    if (isEnumType(type)) return { enum: type.getValues().map((v) => v.name) };
    if (isScalarType(type)) {
      const scalar = SCALARS[type.name];
      if (!scalar) throw new Error(`no JSON Schema for the scalar ${type.name}: add it to SCALARS`);
      return scalar;
    }
    if (!isObjectType(type)) throw new Error(`${type.name}: only object types are described`);
    return objectOf(
      type,
      nodes.flatMap((n) => n.selectionSet?.selections ?? []),
    );
  }

  const responses: Record<string, Schema> = {};
  for (const [key, { document, field, schema: name }] of Object.entries(routes)) {
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const root = operation && schema.getRootType(operation.operation);
    const fieldDef = root?.getFields()[field];
    if (!operation || !root || !fieldDef) throw new Error(`${key}: the stored operation has no root field ${field}`);
    const nodes = [...fieldsOf(operation.selectionSet.selections).get(field)!];
    const type = getNamedType(fieldDef.type);
    if (!isObjectType(type)) throw new Error(`${key}: ${field} returns no object`);
    $defs[name] = named(
      type,
      objectShape(
        type,
        nodes.flatMap((n) => n.selectionSet?.selections ?? []),
      ),
    );
    responses[key] = isListType(getNullableType(fieldDef.type)) ? { type: 'array', items: ref(name) } : ref(name);
  }
  $defs.Error = ERROR_BODY;
  return { $defs, responses };
}
