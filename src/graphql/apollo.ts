// Apollo Server over the TypeGraphQL schema: limits, error shaping, SQL statement reporting, Sandbox.
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { Kind, type FieldNode, type GraphQLFormattedError } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { hidesStatementCount } from '../http/account-privacy.ts';
import { isDatabaseUnavailable, isStatementTimeout, isStorageFull } from '../db/errors.ts';
import { currentSqlStats } from '../db/sql-stats.ts';
import type { Metrics } from '../observability/metrics.ts';
import {
  badInputBeforeExecution,
  ERROR_STATUS,
  SERVICE_UNAVAILABLE_MESSAGE,
  STATEMENT_TIMEOUT_MESSAGE,
  STORAGE_FULL_MESSAGE,
} from '../domain/errors.ts';
import type { Context } from './context.ts';
import { withOfflineExplorerNotice } from './explorer.ts';
import { ExecutionSlots } from './execution-slots.ts';
import { jitExecutor } from '../engine/graphql/jit-executor.ts';
import { engineFor } from '../engine/index.ts';
import { graphqlJsExecutor, slotsGateway } from './executor.ts';
import { aliasLimitRule, queryLimitsRule } from './limits.ts';
import { getSchema } from './schema.ts';
import { resultText } from '../engine/graphql/shared-subtrees/json.ts';
import type { TrustedDocuments } from './trusted-documents.ts';

// The codes the domain raises on purpose (the one table, src/domain/errors.ts); anything else is internal.
const KNOWN_CODES = new Set<string>(Object.keys(ERROR_STATUS).filter((code) => code !== 'INTERNAL_SERVER_ERROR'));
// graphql-js reports a bad literal argument as a validation error; to the client it is bad input.
const ARGUMENT_PROBLEM =
  /(argument|cannot represent|Expected value of type|Enum ".*" cannot|does not exist in ".*" enum)/i;

// Operation names are the client's: a log line keeps a bounded piece.
const MAX_LOGGED_NAME = 100;

const LIMIT_PROBLEM = /exceeds the maximum of|complexity limit|aliases|send the whole value as one variable/;

/**
 * The argument (or input field) a bad literal belongs to: graphql-js points at the value, so read the name
 * written just before it in the document. Variables name themselves ("Variable "$t" got invalid value").
 */
function argumentNameOf(error: unknown, message: string): string | undefined {
  const variable = /Variable "\$([A-Za-z_]\w*)"/.exec(message)?.[1];
  if (variable) return variable;
  const quoted = /argument "([^"]+)"/.exec(message)?.[1];
  if (quoted) return quoted;
  const e = error as { source?: { body: string }; positions?: readonly number[] };
  const at = e.positions?.[0];
  if (!e.source || at === undefined) return undefined;
  return /([A-Za-z_]\w*)\s*:\s*[[{\s]*$/.exec(e.source.body.slice(Math.max(0, at - 200), at))?.[1];
}

function sqlStatsPlugin(enabled: boolean): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue, operation }) {
          const stats = currentSqlStats();
          if (!enabled || !stats || response.body.kind !== 'single') return;
          const { cost } = contextValue.client.outcome;
          const rootFields = operation?.selectionSet.selections
            .filter((s): s is FieldNode => s.kind === Kind.FIELD)
            .map((s) => s.name.value);
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            ...(hidesStatementCount(rootFields) ? {} : { sqlStatements: stats.statements }),
            cost,
            objects: contextValue.scope.objects.resolved,
          };
        },
      };
    },
  };
}

/**
 * Records each operation's name and error codes for metrics, and responds with 503 when the database is away so
 * clients and load balancers can tell an outage from a bad request.
 */
function outcomePlugin(metrics: Metrics): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue, operation }) {
          if (response.body.kind !== 'single') return;
          const errors = response.body.singleResult.errors ?? [];
          const codes = errors.map((e) => String(e.extensions?.code ?? 'INTERNAL_SERVER_ERROR'));
          // Labelled by the first root field of the resolved operation: a set the schema bounds, where client-chosen
          // operation names would let any caller mint metric series.
          const root = operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
          const name = root?.name.value ?? null;
          metrics.observeOperation(name, codes.length === 0);
          const outcome = contextValue?.client?.outcome;
          if (outcome) {
            outcome.errorCodes = codes;
            outcome.operationName = operation?.name?.value.slice(0, MAX_LOGGED_NAME) ?? null;
            outcome.rootFields = operation?.selectionSet.selections
              .filter((s): s is FieldNode => s.kind === Kind.FIELD)
              .map((s) => s.name.value);
          }
          if (codes.includes('SERVICE_UNAVAILABLE') || codes.includes('STORAGE_FULL')) response.http.status = 503;
          else if (codes.includes('REQUEST_TIMEOUT')) response.http.status = 504;
          // A throttled login is a 429 with retry-after over GraphQL too.
          if (codes.length > 0 && codes.every((c) => c === 'RATE_LIMITED')) {
            response.http.status = 429;
            const wait = errors[0].extensions?.retryAfterSeconds;
            if (typeof wait === 'number') response.http.headers.set('retry-after', String(wait));
          }
        },
      };
    },
  };
}

/** Subscriptions are served over WebSocket (src/graphql/subscriptions/server.ts); over HTTP they are refused unrun. */
function subscriptionsOverWebSocketPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription')
            throw badInputBeforeExecution(
              'subscriptions are served over WebSocket (graphql-transport-ws) at /graphql, not over HTTP',
            );
        },
      };
    },
  };
}

// graphql-js suggests names close to a wrong one ("Did you mean "me"?"): with introspection off that would hand
// out the schema a field at a time.
const SUGGESTION = /\s*Did you mean [^?]*\?$/;

export function formatErrorFor(config: Config, log: FastifyBaseLogger) {
  const format = formatErrorWithSuggestions(config, log);
  if (config.graphql.introspection) return format;
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const shaped = format(formatted, error);
    return SUGGESTION.test(shaped.message) ? { ...shaped, message: shaped.message.replace(SUGGESTION, '') } : shaped;
  };
}

function formatErrorWithSuggestions(config: Config, log: FastifyBaseLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code as string | undefined;
    if (code === 'GRAPHQL_VALIDATION_FAILED' && LIMIT_PROBLEM.test(formatted.message)) {
      return { message: formatted.message, locations: formatted.locations, extensions: { code: 'BAD_USER_INPUT' } };
    }
    if (
      (code === 'GRAPHQL_VALIDATION_FAILED' || code === 'BAD_USER_INPUT') &&
      ARGUMENT_PROBLEM.test(formatted.message)
    ) {
      const argumentName = argumentNameOf(error, formatted.message);
      const message =
        argumentName && !formatted.message.includes(`"${argumentName}"`)
          ? `argument "${argumentName}": ${formatted.message}`
          : formatted.message;
      return {
        message,
        locations: formatted.locations,
        extensions: { code: 'BAD_USER_INPUT', ...(argumentName ? { argumentName } : {}) },
      };
    }
    // Apollo's refusals of the HTTP request itself (no query, batch, CSRF preflight, GET mutation): the client's.
    if (code === 'BAD_REQUEST') return { message: formatted.message, extensions: { code: 'BAD_USER_INPUT' } };
    if (
      code &&
      (KNOWN_CODES.has(code) ||
        code.startsWith('GRAPHQL_') ||
        code === 'PERSISTED_QUERY_NOT_FOUND' ||
        code === 'OPERATION_RESOLUTION_FAILURE')
    ) {
      const { stacktrace: _drop, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
      return { ...formatted, extensions: config.env === 'development' ? formatted.extensions : extensions };
    }
    const original = (error as { originalError?: unknown })?.originalError ?? error;
    // Before the outage check: an operator must free space, which no retry of the client's will do.
    if (isStorageFull(original)) {
      log.error({ err: original, path: formatted.path }, 'storage full: a write failed for want of space');
      return { message: STORAGE_FULL_MESSAGE, path: formatted.path, extensions: { code: 'STORAGE_FULL' } };
    }
    if (isDatabaseUnavailable(original)) {
      log.warn({ err: original, path: formatted.path }, 'database unavailable');
      return {
        message: SERVICE_UNAVAILABLE_MESSAGE,
        path: formatted.path,
        extensions: { code: 'SERVICE_UNAVAILABLE' },
      };
    }
    if (isStatementTimeout(original)) {
      log.warn({ path: formatted.path }, 'statement timeout');
      return { message: STATEMENT_TIMEOUT_MESSAGE, path: formatted.path, extensions: { code: 'REQUEST_TIMEOUT' } };
    }
    // graphql-js's own refusals of the request (no originalError, no path): too many variable errors, an operation
    // type the schema lacks. The client's mistake, not ours.
    if (!(error as { originalError?: unknown })?.originalError && !formatted.path) {
      return { message: formatted.message, locations: formatted.locations, extensions: { code: 'BAD_USER_INPUT' } };
    }
    // Anything else is our bug: log it whole, respond without internals.
    log.error(
      { err: (error as { originalError?: unknown })?.originalError ?? error, path: formatted.path },
      'unexpected error in a GraphQL operation',
    );
    return {
      message: config.env === 'development' ? formatted.message : 'internal server error',
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  };
}

export function createApollo(
  config: Config,
  log: FastifyBaseLogger,
  metrics: Metrics,
  extraPlugins: ApolloServerPlugin<Context>[] = [],
  trusted: TrustedDocuments | null = null,
) {
  const slots = new ExecutionSlots(config.graphql.maxConcurrentExecutions);
  metrics.watch('executions', () => slots.stats());
  const sharedRuns = { answered: 0, abandoned: 0 };
  const engine = engineFor(config);
  const schema = getSchema(engine.leanResolvers);
  metrics.watch('sharedRuns', () => sharedRuns);
  return new ApolloServer<Context>({
    // Always a gateway: the executor is where the operations in flight are bounded, compiled or interpreted.
    gateway: slotsGateway(
      schema,
      engine.mode === 'plain'
        ? graphqlJsExecutor(schema)
        : jitExecutor(schema, { compile: engine.jit, share: engine.sharedSubtrees, stats: sharedRuns }),
      slots,
    ),
    introspection: config.graphql.introspection,
    // A GET without a JSON content type runs only with a header no browser sends cross-site without a CORS
    // preflight: Apollo's own two, Authorization and the tenant headers, one of which urql's and graphql-request's
    // default GET queries always carry here.
    csrfPrevention: {
      requestHeaders: [
        'x-apollo-operation-name',
        'apollo-require-preflight',
        'authorization',
        'x-app-path',
        'x-app-host',
        'x-app-company',
      ],
    },
    // Apollo's own writer is JSON.stringify and a newline; this one writes each shared subtree once, and a cache
    // hit's response from the JSON written when it was cached.
    ...(engine.sharedJson ? { stringifyResult: (result) => resultText(result as Record<string, unknown>) + '\n' } : {}),
    // Shutdown is server.ts's: Apollo's own SIGTERM handler (on outside NODE_ENV=test) stops it and re-raises the
    // signal, which cut our drain short and exited 1.
    stopOnTerminationSignals: false,
    // Automatic persisted queries (docs/trusted-documents.md): by default in Apollo's own in-memory LRU cache (about
    // 30 MiB, per replica); with PERSISTED_OPERATIONS_ONLY the manifest serves instead, and nothing is registered.
    ...(trusted ? { persistedQueries: { cache: trusted.apqCache() } } : {}),
    // The parser stops at this many tokens: a 100k-brace document is refused before it costs a deep recursion.
    parseOptions: { maxTokens: config.graphql.maxTokens },
    includeStacktraceInErrorResponses: config.env === 'development',
    validationRules: [
      queryLimitsRule(config.graphql.maxDepth, config.graphql.maxFields),
      aliasLimitRule(config.graphql.maxAliases),
    ],
    formatError: formatErrorFor(config, log),
    logger: log,
    plugins: [
      sqlStatsPlugin(config.sqlStats),
      outcomePlugin(metrics),
      subscriptionsOverWebSocketPlugin(),
      // Both are on by default and wrap every field resolver (willResolveField): on a post with its comments and
      // likes that is thousands of wrapper calls per request for cache hints and traces nobody reads.
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      config.graphql.sandbox
        ? withOfflineExplorerNotice(ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }))
        : ApolloServerPluginLandingPageDisabled(),
      ...extraPlugins,
    ],
  });
}
