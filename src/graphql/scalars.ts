import { GraphQLScalarType } from 'graphql';
import { DateTimeISOResolver, JSONObjectResolver, JSONResolver } from 'graphql-scalars';

/** ISO-8601 timestamps in UTC with milliseconds (e.g. 2026-06-11T19:00:00.000Z), the spec's date-time. */
export const DateTime = new GraphQLScalarType({
  ...DateTimeISOResolver.toConfig(),
  name: 'DateTime',
  description: 'An ISO-8601 timestamp in UTC, e.g. 2026-06-11T19:00:00.000Z.',
});
export const JSONObject = JSONObjectResolver;
export const JSON = JSONResolver;
