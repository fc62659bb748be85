import { GraphQLScalarType, type ValueNode } from 'graphql';
import { DateTimeISOResolver, JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import { checkJsonLiteral, checkJsonValue } from './input-limits.ts';

/** ISO-8601 timestamps in UTC with milliseconds (e.g. 2026-06-11T19:00:00.000Z), the spec's date-time. */
export const DateTime = new GraphQLScalarType({
  ...DateTimeISOResolver.toConfig(),
  name: 'DateTime',
  description: 'An ISO-8601 timestamp in UTC, e.g. 2026-06-11T19:00:00.000Z.',
});

/**
 * A JSON scalar whose inputs are bounded in depth and size (src/graphql/input-limits.ts) before graphql-scalars,
 * which walks them recursively, reads them.
 */
function bounded(scalar: GraphQLScalarType): GraphQLScalarType {
  const config = scalar.toConfig();
  return new GraphQLScalarType({
    ...config,
    parseValue(value: unknown) {
      checkJsonValue(value);
      return config.parseValue!(value);
    },
    parseLiteral(node: ValueNode, variables?: Record<string, unknown> | null) {
      checkJsonLiteral(node);
      return config.parseLiteral!(node, variables);
    },
  });
}

export const JSONObject = bounded(JSONObjectResolver);
export const JSON = bounded(JSONResolver);
