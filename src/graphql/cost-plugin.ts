// Refuses an operation whose estimated cost is over GRAPHQL_MAX_COST before it runs (QUERY_TOO_COSTLY), and turns
// an execution stopped by the object budget into one RESPONSE_TOO_LARGE error with no partial data. REST's stored
// operations run through Apollo too, so both faces get the same limits.
import type { ApolloServerPlugin } from '@apollo/server';
import { getVariableValues } from 'graphql';
import type { CompanySizes } from './company-sizes.ts';
import type { Context } from './context.ts';
import { documentFragments, operationCost } from './cost.ts';
import { queryTooCostly } from '../domain/errors.ts';

export function costPlugin(maxCost: number, companySizes: CompanySizes): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const company = contextValue.scope.auth.tenant?.id ?? contextValue.scope.auth.viewer?.companyId;
          const sizes = companySizes.for(company);
          let coerced: ReturnType<typeof getVariableValues>;
          try {
            coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {}, {
              maxErrors: 1,
            });
          } catch {
            return; // nested past the stack: the executor refuses them (jit-executor.ts), before anything runs
          }
          if (coerced.errors) return; // execution refuses them with their own error, before anything runs
          const fragments = documentFragments(document);
          const cost = operationCost(schema, operation, fragments, coerced.coerced, sizes);
          contextValue.client.outcome.cost = cost;
          if (cost > maxCost) throw queryTooCostly(cost, maxCost);
        },
        async willSendResponse({ response, contextValue }) {
          const objects = contextValue?.scope?.objects;
          if (objects) contextValue.client.outcome.objects = objects.resolved;
          const stopped = objects?.error;
          if (!stopped || response.body.kind !== 'single') return;
          // Extensions stay (the statement report, whichever plugin wrote it first).
          response.body.singleResult = {
            extensions: response.body.singleResult.extensions,
            errors: [
              {
                message: stopped.message,
                extensions: { ...stopped.extensions, maxObjects: objects!.max },
              },
            ],
          };
          response.http.status = 400;
        },
      };
    },
  };
}
