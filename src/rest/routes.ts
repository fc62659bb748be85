// The six REST routes of spec section 4 (and POST /auth/login), each a stored GraphQL operation executed
// in-process against the same schema, so a REST body is exactly the `data` of its operation.
import type { ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { print, type DocumentNode } from 'graphql';
import { isDatabaseUnavailable, isStorageFull } from '../db/errors.ts';
import { contextOf, type ClientInfo, type Context } from '../graphql/context.ts';
import { openRequestScope, tenantHeaders, type ScopeSources, type TenantFrom } from '../http/request-scope.ts';
import { formatCount, SERVICE_UNAVAILABLE_MESSAGE, STORAGE_FULL_MESSAGE } from '../domain/errors.ts';
import {
  RestCompaniesSearchDocument,
  RestInvitationByJwtDocument,
  RestLoginDocument,
  RestMyTournamentsDocument,
  RestPostCommentsDocument,
  RestPostDocument,
  RestUpdateInvitationDocument,
} from '../graphql/generated/operations.ts';
import { fieldJson } from '../engine/graphql/shared-subtrees/json.ts';
import { engineFor } from '../engine/index.ts';
import { redactUrl } from '../observability/redact.ts';
import { sendError } from '../http/error-body.ts';
import { RestInputError, statusOf } from './errors.ts';
import {
  companiesSearchQuery,
  invitationPatch,
  loginBody,
  positiveIntParam,
  rejectUnknownQuery,
  requireJsonContentType,
} from './inputs.ts';

/**
 * A stored operation: its text (printed once, so Apollo's document cache parses and validates it once), and where
 * each of its variables comes from in the REST request, to word an error about one in REST terms.
 */
interface Stored {
  query: string;
  field: string;
  from: Record<string, string>;
  /** How a client of the route asks for a smaller answer, where it can. */
  smaller?: string;
}

function stored(doc: DocumentNode, field: string, from: Record<string, string>, smaller?: string): Stored {
  return { query: print(doc), field, from, smaller };
}

const OPS = {
  post: stored(RestPostDocument, 'post', { id: 'path parameter id' }),
  postComments: stored(RestPostCommentsDocument, 'postComments', { postId: 'path parameter postId' }),
  invitationByJwt: stored(RestInvitationByJwtDocument, 'invitationByJwt', { jwt: 'path parameter jwt' }),
  updateInvitation: stored(RestUpdateInvitationDocument, 'updateInvitation', {
    id: 'path parameter id',
    input: 'body',
  }),
  companiesSearch: stored(
    RestCompaniesSearchDocument,
    'companiesSearch',
    { skip: 'query parameter skip', take: 'query parameter take', search: 'query parameter search' },
    'pass a smaller take',
  ),
  myTournaments: stored(RestMyTournamentsDocument, 'myTournaments', {}),
  login: stored(RestLoginDocument, 'login', { email: 'body field email', password: 'body field password' }),
};

const SEARCH_QUERY = ['skip', 'take', 'search'];

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
export function restLimitMessage(extensions: Record<string, unknown> | undefined, op: Stored): string | null {
  const remedy = op.smaller ? `: ${op.smaller}` : '';
  const { code, cost, maxCost, limit, maxObjects } = extensions ?? {};
  if (code === 'QUERY_TOO_COSTLY' && typeof cost === 'number' && typeof maxCost === 'number') {
    const over = `over the limit of ${formatCount(maxCost)} (GRAPHQL_MAX_COST)`;
    return `the answer may hold ${formatCount(cost)} objects, ${over}${remedy}`;
  }
  if (code === 'RESPONSE_TOO_LARGE' && limit === 'objects' && typeof maxObjects === 'number')
    return `the answer holds more than ${formatCount(maxObjects)} objects (GRAPHQL_MAX_OBJECTS)${remedy}`;
  return null;
}

export interface RestDeps {
  apollo: ApolloServer<Context>;
  sources: ScopeSources;
  clientOf: (request: FastifyRequest) => ClientInfo;
}

export function registerRestRoutes(app: FastifyInstance, { apollo, sources, clientOf }: RestDeps) {
  // Each shared subtree written once, and an answer the response cache served from the JSON it wrote when it kept
  // it (src/engine/graphql/shared-subtrees/json.ts); without the engine, JSON.stringify.
  const bodyOf = engineFor(sources.config).sharedJson
    ? fieldJson
    : (answer: Record<string, unknown>, field: string) => JSON.stringify(answer[field]);
  // The post routes take the tenant from x-app-company; the others from x-app-path / x-app-host (spec 4, 5).
  async function run(
    request: FastifyRequest,
    reply: FastifyReply,
    op: Stored,
    variables: Record<string, unknown>,
    tenant: TenantFrom,
  ) {
    const opened = await openRequestScope(sources, tenantHeaders(request, tenant));
    const contextValue = contextOf(opened, clientOf(request));
    const response = await apollo.executeOperation({ query: op.query, variables }, { contextValue });
    if (response.body.kind !== 'single') throw new Error('stored operations answer a single result');
    if (reply.sent) return reply; // the request deadline answered already
    const { data, errors } = response.body.singleResult;
    if (errors?.length) {
      const code = String(errors[0].extensions?.code ?? 'INTERNAL_SERVER_ERROR');
      const retryAfter = errors[0].extensions?.retryAfterSeconds;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      const message = restLimitMessage(errors[0].extensions, op) ?? restMessage(errors[0].message, op.from);
      return sendError(reply, statusOf(code), code, message);
    }
    const body = bodyOf(data as Record<string, unknown>, op.field);
    return reply.code(200).type('application/json; charset=utf-8').send(body);
  }

  // Only the search takes query parameters; every route refuses one it does not take (docs/rest.md).
  app.get<{ Params: { id: string } }>('/posts/:id', (req, reply) => {
    rejectUnknownQuery(req.query, []);
    return run(req, reply, OPS.post, { id: positiveIntParam(req.params.id, 'id') }, 'company');
  });

  app.get<{ Params: { postId: string } }>('/posts/:postId/comments', (req, reply) => {
    rejectUnknownQuery(req.query, []);
    return run(req, reply, OPS.postComments, { postId: positiveIntParam(req.params.postId, 'postId') }, 'company');
  });

  app.get<{ Params: { jwt: string } }>('/invitations/jwt/:jwt', (req, reply) => {
    rejectUnknownQuery(req.query, []);
    return run(req, reply, OPS.invitationByJwt, { jwt: req.params.jwt }, 'path-or-host');
  });

  app.patch<{ Params: { id: string } }>('/invitations/:id', (req, reply) => {
    rejectUnknownQuery(req.query, []);
    requireJsonContentType(req.headers['content-type']);
    const variables = { id: positiveIntParam(req.params.id, 'id'), input: invitationPatch(req.body) };
    return run(req, reply, OPS.updateInvitation, variables, 'path-or-host');
  });

  app.get<{ Querystring: Record<string, unknown> }>('/companies/search', (req, reply) => {
    rejectUnknownQuery(req.query, SEARCH_QUERY);
    return run(req, reply, OPS.companiesSearch, companiesSearchQuery(req.query), 'path-or-host');
  });

  app.get('/tournaments/me', (req, reply) => {
    rejectUnknownQuery(req.query, []);
    return run(req, reply, OPS.myTournaments, {}, 'path-or-host');
  });

  app.post('/auth/login', (req, reply) => {
    rejectUnknownQuery(req.query, []);
    requireJsonContentType(req.headers['content-type']);
    return run(req, reply, OPS.login, loginBody(req.body), 'path-or-host');
  });
}

/**
 * Every error outside GraphQL (bad input, unparsable bodies, unknown routes) answers the same error body; a known
 * path asked with another method is a 405 naming the methods it answers (`allowedMethods`: allowed-methods.ts).
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
        `${redactUrl(path)} does not answer ${request.method}; it answers ${allowed.join(', ')}`,
      );
    }
    return sendError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${redactUrl(path)}`);
  });
}
