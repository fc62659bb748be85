// OpenTelemetry spans for requests, GraphQL operations, root resolvers and SQL statements. Only the API is
// imported here; the SDK that records and exports them is loaded by src/observability/tracing-sdk.ts, and only
// when OTEL_EXPORTER_OTLP_ENDPOINT is set. With tracing off none of these hooks is registered.
import type { ApolloServerPlugin } from '@apollo/server';
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context as OtelContext,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { currentSqlStats, observeStatements } from '../db/sql-stats.ts';
import { redactUrl } from './redact.ts';

/** What src/server.ts hands to the app when tracing is on. */
export interface Tracing {
  tracer: Tracer;
  /** Exports the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

/** Statement text kept on a span: Prisma's statements have placeholders, never values, but can be long. */
const MAX_STATEMENT_CHARS = 2000;

/**
 * A server span per HTTP request, continuing the caller's trace when it sends a traceparent header. Registered
 * first, so every later hook, the handler and the statements it causes run inside the span's context.
 */
export function registerHttpSpans(app: FastifyInstance, tracer: Tracer) {
  app.decorateRequest('span', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'url.path': pathOf(request) },
      },
      parent,
    );
    request.span = span;
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = request.span;
    if (!span) return;
    const route = request.routeOptions.url;
    if (route) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', reply.statusCode);
    const { errorCodes } = request.outcome ?? { errorCodes: [] };
    if (errorCodes.length) span.setAttribute('prode.error_codes', errorCodes);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

export const traceIdOf = (request: FastifyRequest) => request.span?.spanContext().traceId;

function pathOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  // A routed request is named by its template, so tokens in paths (invitation links) never reach a span.
  return route ?? redactUrl(request.url.split('?')[0]).slice(0, 200);
}

/** Each operation's span context, by the operation's context value (what resolvers are handed). */
const operations = new WeakMap<object, OtelContext>();
/** Spans of root resolvers: a statement sent inside one is its child. */
const resolverSpans = new WeakSet<Span>();
const WRAPPED = Symbol('prode.traced');

/**
 * A span per GraphQL operation, named as the operation (its root resolvers' spans are made by
 * traceRootResolvers).
 */
export function tracingPlugin(tracer: Tracer): ApolloServerPlugin {
  return {
    async requestDidStart({ contextValue }) {
      const parent = context.active();
      const span = tracer.startSpan('GraphQL operation', { kind: SpanKind.INTERNAL }, parent);
      const spanContext = trace.setSpan(parent, span);
      operations.set(contextValue, spanContext);
      // The request's statements are children of the operation from here on (see traceSqlStatements).
      const stats = currentSqlStats();
      if (stats) stats.traceParent = spanContext;
      return {
        async didResolveOperation({ operation }) {
          const type = operation?.operation ?? 'query';
          const name = operation?.name?.value;
          span.updateName(name ? `${type} ${name.slice(0, 100)}` : type);
          span.setAttribute('graphql.operation.type', type);
          if (name) span.setAttribute('graphql.operation.name', name.slice(0, 100));
        },
        async willSendResponse({ response }) {
          if (response.body.kind === 'single') {
            const codes = (response.body.singleResult.errors ?? []).map((e) =>
              String(e.extensions?.code ?? 'INTERNAL_SERVER_ERROR'),
            );
            if (codes.length) {
              span.setAttribute('prode.error_codes', codes);
              span.setStatus({ code: SpanStatusCode.ERROR });
            }
          }
          if (stats?.traceParent === spanContext) stats.traceParent = undefined;
          span.end();
        },
      };
    },
  };
}

/**
 * A span per root field of queries and mutations, under its operation's span, with the resolver running in its
 * context so the statements it sends are its children. Deeper fields are left out: a list of posts with comments
 * would be thousands of spans, most of them property reads. The schema's resolvers are wrapped in place (once,
 * at start-up, only with tracing on), so graphql-jit's compiled operations and graphql-js both run the wrapper.
 * Apollo's willResolveField would not do: Apollo (ESM) does not recognise the object types TypeGraphQL builds
 * with graphql's CommonJS build, and wraps none of them.
 */
export function traceRootResolvers(schema: GraphQLSchema, tracer: Tracer) {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const resolve = field.resolve as (GraphQLFieldResolver<unknown, object> & { [WRAPPED]?: true }) | undefined;
      if (!resolve || resolve[WRAPPED]) continue;
      const traced: GraphQLFieldResolver<unknown, object> & { [WRAPPED]?: true } = (source, args, ctx, info) => {
        const parent = operations.get(ctx) ?? context.active();
        const span = tracer.startSpan(
          `${info.parentType.name}.${info.fieldName}`,
          { kind: SpanKind.INTERNAL, attributes: { 'graphql.field.name': info.fieldName } },
          parent,
        );
        resolverSpans.add(span);
        const failed = (err: unknown) => {
          markFailed(span, err);
          span.end();
          throw err;
        };
        try {
          const result = context.with(trace.setSpan(parent, span), () => resolve(source, args, ctx, info));
          if (!(result instanceof Promise)) {
            span.end();
            return result;
          }
          return result.then((value) => {
            span.end();
            return value;
          }, failed);
        } catch (err) {
          return failed(err);
        }
      };
      traced[WRAPPED] = true;
      field.resolve = traced;
    }
  }
}

/**
 * A failed span says what kind of failure, never the error's message: domain errors name the e-mail address they
 * are about, and a driver's constraint error quotes the row's values.
 */
function markFailed(span: Span, err: unknown) {
  const e = err as { extensions?: { code?: unknown }; code?: unknown; name?: unknown } | null;
  const type = String(e?.extensions?.code ?? e?.code ?? e?.name ?? 'Error');
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/**
 * A client span per SQL statement sent for a request (or inside any other span). Statements outside any trace
 * (start-up, background ticks) make no spans.
 */
export function traceSqlStatements(tracer: Tracer, system: 'sqlite' | 'postgresql') {
  observeStatements((sql, run) => {
    // Inside a root resolver: its child. Elsewhere in an operation (nested fields, batched loaders): the
    // operation's. Else the request's.
    const active = context.active();
    const activeSpan = trace.getSpan(active);
    const parent =
      activeSpan && resolverSpans.has(activeSpan)
        ? active
        : ((currentSqlStats()?.traceParent as OtelContext | undefined) ?? active);
    if (!trace.getSpan(parent)) return run();
    const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
    const span = tracer.startSpan(
      verb,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': system, 'db.query.text': sql.slice(0, MAX_STATEMENT_CHARS) },
      },
      parent,
    );
    return run().then(
      (result) => {
        span.end();
        return result;
      },
      (err: unknown) => {
        markFailed(span, err);
        span.end();
        throw err;
      },
    );
  });
}
