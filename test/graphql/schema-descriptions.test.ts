// The schema explains itself: every type, field, argument, input field and enum value the API defines carries a
// description (who may call it, what it returns when there is nothing, units and time zones). Built-in scalars
// and introspection types are GraphQL's own. No database: the schema is built from the code.
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.ts';

/** Schema coordinates (Type, Type.field, Type.field(arg), Enum.VALUE) without a description. */
function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  const blank = (text: string | null | undefined) => !text?.trim();
  const own = (t: GraphQLNamedType) => !isIntrospectionType(t) && !isSpecifiedScalarType(t);
  for (const type of Object.values(schema.getTypeMap()).filter(own)) {
    if (blank(type.description)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type))
      for (const field of Object.values(type.getFields())) {
        if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args)
          if (blank(arg.description)) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    if (isInputObjectType(type))
      for (const field of Object.values(type.getFields()))
        if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
    if (isEnumType(type))
      for (const value of type.getValues()) if (blank(value.description)) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe('schema descriptions', () => {
  it('describes every type, field, argument, input field and enum value', () => {
    const missing = undescribed(getSchema());
    expect(missing, `without a description: ${missing.join(', ')}`).toEqual([]);
  });

  it('the check sees what it must: root fields, arguments, input fields and enum values', () => {
    const schema = getSchema();
    const matches = schema.getQueryType()!.getFields().matches;
    expect(matches.args.map((a) => a.name)).toEqual(expect.arrayContaining(['from', 'to', 'tournamentId', 'status']));
    expect(Object.keys(schema.getMutationType()!.getFields()).length).toBeGreaterThan(50);
    expect(schema.getSubscriptionType()).toBeTruthy();
    // A field stripped of its description is reported by its coordinate.
    const field = matches.args.find((a) => a.name === 'from')!;
    const saved = field.description;
    field.description = '';
    try {
      expect(undescribed(schema)).toEqual(['Query.matches(from)']);
    } finally {
      field.description = saved;
    }
  });
});
