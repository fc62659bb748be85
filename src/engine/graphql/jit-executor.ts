// Executes operations with graphql-jit instead of graphql-js's interpreter, through Apollo's `gateway` hook (Apollo
// Server 5 has no executor option), each document compiled once. Why: docs/decisions/0001-execute-on-graphql-jit.md.
import type { GatewayExecutor } from '@apollo/server-gateway-interface';
import {
  BREAK,
  execute,
  getVariableValues,
  GraphQLError,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { withLastCacheLookup } from '../cache/response-cache.ts';
import { executeShared, planShared, type SharedPlan } from './shared-subtrees/executor.ts';

/** Distinct documents held compiled; clients send a bounded set, hostile ones are evicted oldest first. */
const MAX_COMPILED = 500;

/**
 * Compiling costs more than interpreting once, so a document is compiled the second time it is seen: a stream
 * of one-off documents (a hostile client, an explorer) is interpreted and never pays for compilations.
 */
const MAX_SEEN = 5000;

/** A document seen before: graphql-jit's function for it, and for a query its plan for shared subtrees. */
interface Compiled {
  jit: CompiledQuery | null;
  shared: SharedPlan | null;
}

const INTERPRETED: Compiled = { jit: null, shared: null };

/** Queries the shared-subtree executor completed, and those it gave back to graphql-jit (an error on the way). */
export interface SharedRunStats {
  answered: number;
  abandoned: number;
}

/**
 * `compile` false: every document is interpreted by graphql-js (GRAPHQL_JIT=false). `share` false: queries run on
 * graphql-jit too, each repeated object resolved again (GRAPHQL_SHARED_SUBTREES=false).
 */
export function createJitExecutor(
  schema: GraphQLSchema,
  {
    compile = true,
    share = true,
    stats = { answered: 0, abandoned: 0 },
  }: { compile?: boolean; share?: boolean; stats?: SharedRunStats } = {},
): GatewayExecutor {
  const compiled = new Map<string, Compiled>();
  const seen = new Set<string>();

  function compiledFor(document: DocumentNode, key: string, operation: OperationDefinitionNode): Compiled {
    if (!compile) return INTERPRETED;
    let query = compiled.get(key);
    if (query === undefined) {
      if (!seen.has(key)) {
        if (seen.size >= MAX_SEEN) seen.clear();
        seen.add(key);
        return INTERPRETED;
      }
      seen.delete(key);
      const operationName = operation.name?.value;
      const result = graphqlJsOnly(document) ? null : compileQuery(schema, document, operationName);
      // A document graphql-jit will not compile, or must not, runs on graphql-js from then on.
      const jit = result && isCompiledQuery(result) ? result : null;
      query = { jit, shared: jit && share ? planShared(schema, document, operation) : null };
      if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, query);
    }
    return query;
  }

  return async (requestContext) => {
    const { document, queryHash, operation, context, request } = requestContext;
    // The name the client asked for (the resolved one is null when it names no operation).
    const operationName = request.operationName ?? undefined;
    const variables = request.variables ?? {};
    const interpreted = () =>
      execute({
        schema,
        document,
        contextValue: context,
        variableValues: variables,
        operationName,
      }) as Promise<ExecutionResult>;
    // No single operation to run (unknown or missing operation name), or bad variables: graphql-js refuses
    // those before any resolver runs, with errors worded and shaped the way Apollo recognises as the client's
    // (BAD_USER_INPUT).
    if (!operation) return interpreted();
    // Variables are coerced by graphql-js and graphql-jit is handed the result: graphql-jit refuses an omitted
    // non-null input field that has a default (`role: Role! = player`) where graphql-js applies the default,
    // and coercing already-coerced values again is a no-op for our scalars and enums.
    let coerced: ReturnType<typeof getVariableValues>;
    try {
      coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
    } catch {
      // Nested deeper than the stack goes: worded as Apollo words a refused variable, so it responds with 400.
      const definition = operation.variableDefinitions![0];
      const message = `Variable "$${definition.variable.name.value}" got invalid value (nested too deeply)`;
      return { errors: [new GraphQLError(message, { nodes: [definition], extensions: { code: 'BAD_USER_INPUT' } })] };
    }
    if (coerced.errors) return interpreted();
    const { jit, shared } = compiledFor(document, `${queryHash}:${operationName ?? ''}`, operation);
    if (shared) {
      const data = await executeShared(schema, shared, context, coerced.coerced);
      // Null: an error on the way, which graphql-jit reports with its paths and partial data.
      if (data) {
        stats.answered++;
        return { data };
      }
      stats.abandoned++;
    }
    if (!jit) return interpreted();
    const result = (await jit.query(undefined, context, coerced.coerced)) as ExecutionResult;
    // Refused before anything ran (no data at all), where graphql-js accepted: let graphql-js run it.
    if (result.data === undefined) return interpreted();
    return result.errors?.length ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  };
}

/**
 * Documents graphql-jit 0.8 executes wrongly, left to graphql-js:
 * - @skip and @include: it marks a fragment as seen before checking its condition (`...F @skip(if: true) ...F`
 *   loses F) and writes the conditions onto the document's own nodes, which Apollo reuses for the next request;
 * - a field aliased `__proto__`: its response objects drop the key, which graphql-js writes in place.
 */
function graphqlJsOnly(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'skip' || node.name.value === 'include') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
    Field(node) {
      if (node.alias?.value === '__proto__') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * graphql-jit's errors pass for graphql-js's (same prototype) but are built differently: no `extensions`
 * object unless the thrown error had one, which Apollo's error formatting relies on. Rebuilt as graphql-js's.
 */
type JitError = Pick<GraphQLError, 'message' | 'path' | 'locations' | 'originalError' | 'extensions'>;

function asGraphQLError(error: JitError): GraphQLError {
  const converted = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions,
  });
  (converted as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return converted;
}

/**
 * The executor Apollo's gateway runs (src/graphql/executor.ts): the JIT executor (or graphql-js's, `compile` false),
 * with the response cache's last cache lookup.
 */
export function jitExecutor(
  schema: GraphQLSchema,
  options: { compile: boolean; share: boolean; stats: SharedRunStats },
): GatewayExecutor {
  return withLastCacheLookup(createJitExecutor(schema, options));
}
