// The REST routes of route-table.ts, each a stored GraphQL operation executed in-process against the same schema,
// so a REST body is exactly the `data` of its operation.
import type { ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { print } from 'graphql';
import { isDatabaseUnavailable, isStorageFull } from '../db/errors.ts';
import { contextOf, type ClientInfo, type Context } from '../graphql/context.ts';
import { openRequestScope, tenantHeaders, type ScopeSources } from '../http/request-scope.ts';
import { formatCount, SERVICE_UNAVAILABLE_MESSAGE, STORAGE_FULL_MESSAGE } from '../domain/errors.ts';
import { fieldJson } from '../engine/graphql/shared-subtrees/json.ts';
import { engineFor } from '../engine/index.ts';
import { redactUrl } from '../observability/redact.ts';
import { sendError } from '../http/error-body.ts';
import { RestInputError, statusOf } from './errors.ts';
import { rejectUnknownQuery, requireJsonContentType } from './inputs.ts';
import { REST_ROUTES, type RestRequestParts, type RestRoute } from './route-table.ts';

/** A route's stored operation printed once, so Apollo's document cache parses and validates it once. */
interface PrintedRoute {
  route: RestRoute;
  query: string;
}

/**
 * GraphQL's own wording of a variable it refused ("Variable "$input" got invalid value ... at "input.role"") in
 * REST words. The routes check their input before GraphQL runs; this is the net for what they let through.
 */
export function restMessage(message: string, from: Record<string, string>): string {
  const m = /variable "\$(\w+)" (?:got invalid value.*?(?: at "\w+\.([\w.]+)")?;|(contains a NUL))/is.exec(message);
  if (!m) return message;
  const [, variable, path, nul] = m;
  const origin = from[variable] ?? `input ${variable}`;
  const where = origin === 'body' ? (path ? `body field ${path}` : 'the body') : origin;
  return nul ? `${where} must not contain a NUL character` : `${where} has a value of the wrong type or out of range`;
}

/**
 * The query limits' messages name GraphQL remedies (ask for fewer nested lists); a route's selection is fixed, so
 * its client hears the limit and what it can change, if anything. Null: the message is fine as it is.
 */
export function restLimitMessage(
  extensions: Record<string, unknown> | undefined,
  route: Pick<RestRoute, 'smaller'>,
): string | null {
  const remedy = route.smaller ? `: ${route.smaller}` : '';
  const { code, cost, maxCost, limit, maxObjects } = extensions ?? {};
  if (code === 'QUERY_TOO_COSTLY' && typeof cost === 'number' && typeof maxCost === 'number') {
    const over = `over the limit of ${formatCount(maxCost)} (GRAPHQL_MAX_COST)`;
    return `the response may hold ${formatCount(cost)} objects, ${over}${remedy}`;
  }
  if (code === 'RESPONSE_TOO_LARGE' && limit === 'objects' && typeof maxObjects === 'number')
    return `the response holds more than ${formatCount(maxObjects)} objects (GRAPHQL_MAX_OBJECTS)${remedy}`;
  return null;
}

export interface RestDeps {
  apollo: ApolloServer<Context>;
  sources: ScopeSources;
  clientOf: (request: FastifyRequest) => ClientInfo;
}

export function registerRestRoutes(app: FastifyInstance, { apollo, sources, clientOf }: RestDeps) {
  // Each shared subtree written once, and a response cache hit served from the JSON written when it was cached
  // (src/engine/graphql/shared-subtrees/json.ts); without the engine, JSON.stringify.
  const bodyOf = engineFor(sources.config).sharedJson
    ? fieldJson
    : (data: Record<string, unknown>, field: string) => JSON.stringify(data[field]);
  async function run(
    request: FastifyRequest,
    reply: FastifyReply,
    { route, query }: PrintedRoute,
    variables: Record<string, unknown>,
  ) {
    const opened = await openRequestScope(sources, tenantHeaders(request, route.tenant));
    const contextValue = contextOf(opened, clientOf(request));
    const response = await apollo.executeOperation({ query, variables }, { contextValue });
    if (response.body.kind !== 'single') throw new Error('stored operations return a single result');
    if (reply.sent) return reply; // the request deadline responded already
    const { data, errors } = response.body.singleResult;
    if (errors?.length) {
      const code = String(errors[0].extensions?.code ?? 'INTERNAL_SERVER_ERROR');
      const retryAfter = errors[0].extensions?.retryAfterSeconds;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      const message = restLimitMessage(errors[0].extensions, route) ?? restMessage(errors[0].message, route.from);
      return sendError(reply, statusOf(code), code, message);
    }
    const body = bodyOf(data as Record<string, unknown>, route.field);
    return reply.code(200).type('application/json; charset=utf-8').send(body);
  }

  for (const route of REST_ROUTES) {
    const stored: PrintedRoute = { route, query: print(route.document) };
    app.route<RestRequestParts>({
      method: route.method,
      url: route.path,
      handler: (req, reply) => {
        // Only the search takes query parameters; every route refuses one it does not take (docs/rest.md).
        rejectUnknownQuery(req.query, route.query ?? []);
        if (route.jsonBody) requireJsonContentType(req.headers['content-type']);
        return run(req, reply, stored, route.variables(req));
      },
    });
  }
}

/**
 * Every error outside GraphQL (bad input, unparsable bodies, unknown routes) returns the same error body; a known
 * path asked with another method is a 405 naming the methods it serves (`allowedMethods`: allowed-methods.ts).
 */
export function registerErrorHandlers(app: FastifyInstance, allowedMethods: (path: string) => string[]) {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err instanceof RestInputError) return sendError(reply, err.statusCode, err.code, err.message);
    if (isStorageFull(err)) {
      request.log.error({ err }, 'storage full: a write failed for want of space');
      return sendError(reply, 503, 'STORAGE_FULL', STORAGE_FULL_MESSAGE);
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return sendError(reply, 503, 'SERVICE_UNAVAILABLE', SERVICE_UNAVAILABLE_MESSAGE);
    }
    if (err.statusCode === 429) return sendError(reply, 429, 'RATE_LIMITED', err.message);
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return sendError(reply, 500, 'INTERNAL_SERVER_ERROR', 'internal server error');
    }
    const message =
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
        ? 'the body is not valid JSON'
        : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'a JSON body is required'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'the body is too large'
            : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'unsupported content type: send application/json'
              : err.message;
    return sendError(
      reply,
      status,
      status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_USER_INPUT',
      message,
    );
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedMethods(path);
    // A route that serves this method but found nothing (an unknown /docs asset) is a 404 like an unknown path.
    if (allowed.length && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      return sendError(
        reply,
        405,
        'METHOD_NOT_ALLOWED',
        `${redactUrl(path)} does not serve ${request.method}; it serves ${allowed.join(', ')}`,
      );
    }
    return sendError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${redactUrl(path)}`);
  });
}
