// Refuses an operation whose estimated cost is over GRAPHQL_MAX_COST before it runs (QUERY_TOO_COSTLY), and turns
// an execution stopped by the object budget into one RESPONSE_TOO_LARGE error with no partial data. REST's stored
// operations run through Apollo too, so both faces get the same limits.
import type { ApolloServerPlugin } from '@apollo/server';
import { getVariableValues } from 'graphql';
import type { CompanySizes } from './company-sizes.ts';
import type { Context } from './context.ts';
import { documentFragments, operationCost } from './cost.ts';
import { queryTooCostly } from '../domain/errors.ts';

/** Estimates remembered (the latest computed; the oldest out first), and the longest variables' JSON that is. */
const MEMO_ENTRIES = 2000;
const MEMO_MAX_VARIABLES = 2048;

/**
 * The estimate depends only on the document, the operation, its variables and the company's size: the same
 * request asked again (every cache hit, every REST call of a stored operation) has the same cost, so it is walked
 * once. Variables that write the same JSON coerce to the same values, or all but one of them are refused by
 * execution's own coercion (NaN writes as null). Null for variables too large to key by (or that JSON cannot walk):
 * those are estimated every time.
 */
function costKey(
  queryHash: string,
  operationName: string | undefined,
  companyUsers: number,
  variables: Record<string, unknown> | undefined,
): string | null {
  let json: string;
  try {
    json = JSON.stringify(variables ?? {});
  } catch {
    return null;
  }
  if (json.length > MEMO_MAX_VARIABLES) return null;
  return `${queryHash}|${operationName ?? ''}|${companyUsers}|${json}`;
}

export function costPlugin(maxCost: number, companySizes: CompanySizes): ApolloServerPlugin<Context> {
  const memo = new Map<string, number>();
  const remember = (key: string, cost: number) => {
    memo.set(key, cost);
    if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue, queryHash }) {
          if (!operation) return;
          const company = contextValue.scope.auth.tenant?.id ?? contextValue.scope.auth.viewer?.companyId;
          const sizes = companySizes.for(company);
          const memoKey = costKey(queryHash, operation.name?.value, sizes.companyUsers, request.variables);
          const known = memoKey === null ? undefined : memo.get(memoKey);
          if (known !== undefined) {
            contextValue.client.outcome.cost = known;
            if (known > maxCost) throw queryTooCostly(known, maxCost);
            return;
          }
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
          if (memoKey !== null) remember(memoKey, cost);
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
