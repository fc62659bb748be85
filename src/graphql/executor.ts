// Apollo Server 5 takes no executor, only a `gateway`: this one serves our own schema with the executor given
// (graphql-js's `execute` unless the engine brings its own), at most `slots.limit` queries at a time.
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, getVariableValues, GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { inSlots, type ExecutionSlots } from './execution-slots.ts';

export function slotsGateway(
  schema: GraphQLSchema,
  executor: GatewayExecutor,
  slots: ExecutionSlots,
): GatewayInterface {
  return {
    async load() {
      return { executor: inSlots(executor, slots) };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async stop() {},
  };
}

/** graphql-js's `execute`, as Apollo would run it without a gateway. */
export function graphqlJsExecutor(schema: GraphQLSchema): GatewayExecutor {
  return async ({ document, operation, context, request }) => {
    const variables = request.variables ?? {};
    const definitions = operation?.variableDefinitions ?? [];
    try {
      getVariableValues(schema, definitions, variables, { maxErrors: 1 });
    } catch {
      // Nested deeper than the stack goes: worded as Apollo words a refused variable, so it responds with 400.
      const definition = definitions[0]!;
      const message = `Variable "$${definition.variable.name.value}" got invalid value (nested too deeply)`;
      return { errors: [new GraphQLError(message, { nodes: [definition], extensions: { code: 'BAD_USER_INPUT' } })] };
    }
    return (await execute({
      schema,
      document,
      contextValue: context,
      variableValues: variables,
      operationName: request.operationName ?? undefined,
    })) as ExecutionResult;
  };
}
