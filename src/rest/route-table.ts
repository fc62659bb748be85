// The REST routes (spec section 4, POST /auth/login and the single sign-on answers), each a stored GraphQL
// operation: the one table the route registration (routes.ts), the responses' JSON Schemas
// (schema-from-operations.ts) and the OpenAPI document (openapi.ts) all read. A new route is a new row here and a
// stored operation in operations/rest/.
import type { FastifyRequest } from 'fastify';
import type { DocumentNode } from 'graphql';
import {
  RestCompaniesSearchDocument,
  RestExchangeLoginCodeDocument,
  RestInvitationByJwtDocument,
  RestLoginDocument,
  RestMyTournamentsDocument,
  RestPostCommentsDocument,
  RestPostDocument,
  RestSignInMethodsDocument,
  RestUpdateInvitationDocument,
} from '../graphql/generated/operations.ts';
import type { TenantFrom } from '../http/request-scope.ts';
import {
  companiesSearchQuery,
  invitationPatch,
  loginBody,
  loginCodeBody,
  positiveIntParam,
  signInMethodsQuery,
} from './inputs.ts';

/** What a route reads of its request: path parameters by name, the query string parsed. */
export type RestRequestParts = { Params: Record<string, string>; Querystring: Record<string, unknown> };
type Request = FastifyRequest<RestRequestParts>;

export interface RestRoute {
  method: 'GET' | 'PATCH' | 'POST';
  /** As Fastify writes it (`/posts/:id`); the OpenAPI document writes `{id}`. */
  path: string;
  /** The stored operation (operations/rest/); a 200 body is its `data[field]`. */
  document: DocumentNode;
  field: string;
  /** The name of the response's object schema (the OpenAPI document's component). */
  schema: string;
  /** Where each variable comes from in the REST request, to word an error about one in REST terms. */
  from: Record<string, string>;
  /** The variables, from the request's path, query and body, checked in REST words (inputs.ts). */
  variables: (request: Request) => Record<string, unknown>;
  /** The query parameters it takes; any other is a 400 (docs/rest.md). */
  query?: readonly string[];
  /** It reads a JSON body, and refuses another content type with 415. */
  jsonBody?: boolean;
  /** The post routes take the tenant from x-app-company; the others from x-app-path / x-app-host (spec 4, 5). */
  tenant: TenantFrom;
  /** How a client of the route asks for a smaller response, where it can. */
  smaller?: string;
  openapi: {
    summary: string;
    operationId: string;
    tag: string;
    /** What the 200 returns. */
    returns: string;
    /** The route's own error statuses, each with what causes it. */
    errors: Record<number, string>;
    /** Needs no Bearer token. */
    public?: true;
    /** The tenant headers are not listed: the link names its company. */
    noTenantHeaders?: true;
    /** The query parameters' and the body's schemas, where it takes any. */
    query?: object[];
    body?: object;
  };
}

const areaRef = { type: ['object', 'null'], required: ['id'], properties: { id: { type: 'integer' } } };

export const REST_ROUTES: RestRoute[] = [
  {
    method: 'GET',
    path: '/posts/:id',
    document: RestPostDocument,
    field: 'post',
    schema: 'Post',
    from: { id: 'path parameter id' },
    variables: (req) => ({ id: positiveIntParam(req.params.id, 'id') }),
    tenant: 'company',
    openapi: {
      summary: 'A community post of the company',
      operationId: 'getPost',
      tag: 'community',
      returns: 'The post',
      errors: { 400: 'Malformed id, or an unknown query parameter', 404: 'No such post in this company' },
    },
  },
  {
    method: 'GET',
    path: '/posts/:postId/comments',
    document: RestPostCommentsDocument,
    field: 'postComments',
    schema: 'PostComment',
    from: { postId: 'path parameter postId' },
    variables: (req) => ({ postId: positiveIntParam(req.params.postId, 'postId') }),
    tenant: 'company',
    openapi: {
      summary: 'The comments of a post, oldest first',
      operationId: 'getPostComments',
      tag: 'community',
      returns: 'The comments',
      errors: { 400: 'Malformed postId, or an unknown query parameter', 404: 'No such post in this company' },
    },
  },
  {
    method: 'GET',
    path: '/invitations/jwt/:jwt',
    document: RestInvitationByJwtDocument,
    field: 'invitationByJwt',
    schema: 'InvitationByJwt',
    from: { jwt: 'path parameter jwt' },
    variables: (req) => ({ jwt: req.params.jwt }),
    tenant: 'path-or-host',
    openapi: {
      summary: 'The invitation a signed link points to (public)',
      operationId: 'getInvitationByJwt',
      tag: 'invitations',
      returns: 'The invitation',
      errors: { 404: 'The link is invalid, expired or revoked' },
      public: true,
      noTenantHeaders: true,
    },
  },
  {
    method: 'PATCH',
    path: '/invitations/:id',
    document: RestUpdateInvitationDocument,
    field: 'updateInvitation',
    schema: 'InvitationPatched',
    from: { id: 'path parameter id', input: 'body' },
    variables: (req) => ({ id: positiveIntParam(req.params.id, 'id'), input: invitationPatch(req.body) }),
    jsonBody: true,
    tenant: 'path-or-host',
    openapi: {
      summary: 'Change an invitation (admins of its company, its reseller, managers)',
      operationId: 'updateInvitation',
      tag: 'invitations',
      returns: 'The changed invitation',
      errors: {
        400: 'Bad body, role, e-mail or area, or an unknown query parameter',
        404: 'No such invitation in this company',
        409: 'The e-mail is already invited or registered',
      },
      body: {
        type: 'object',
        minProperties: 1,
        additionalProperties: false,
        properties: {
          externalId: { type: 'string' },
          name: { type: 'string' },
          email: { type: 'string', format: 'email' },
          role: { enum: ['player', 'admin', 'reseller', 'manager'] },
          company: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          areaLevel1: areaRef,
          areaLevel2: areaRef,
          areaLevel3: areaRef,
        },
      },
    },
  },
  {
    method: 'GET',
    path: '/companies/search',
    document: RestCompaniesSearchDocument,
    field: 'companiesSearch',
    schema: 'CompanySearchResult',
    from: { skip: 'query parameter skip', take: 'query parameter take', search: 'query parameter search' },
    variables: (req) => companiesSearchQuery(req.query),
    query: ['skip', 'take', 'search'],
    tenant: 'path-or-host',
    smaller: 'pass a smaller take',
    openapi: {
      summary: 'Companies the caller may see, by name, code or appPath',
      operationId: 'searchCompanies',
      tag: 'companies',
      returns: 'Compact companies',
      errors: { 400: 'Bad skip, take or search, or another query parameter' },
      query: [
        { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
        { name: 'take', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        {
          name: 'search',
          in: 'query',
          description:
            'Part of the name, code or appPath, case-insensitive; every character is literal (% and _ are no ' +
            'wildcards); no NUL.',
          schema: { type: 'string', maxLength: 100 },
        },
      ],
    },
  },
  {
    method: 'GET',
    path: '/tournaments/me',
    document: RestMyTournamentsDocument,
    field: 'myTournaments',
    schema: 'MyTournament',
    from: {},
    variables: () => ({}),
    tenant: 'path-or-host',
    openapi: {
      summary: "The company's tournaments with the caller's own predictions",
      operationId: 'myTournaments',
      tag: 'tournaments',
      returns: 'Tournaments',
      errors: {},
    },
  },
  {
    method: 'POST',
    path: '/auth/login',
    document: RestLoginDocument,
    field: 'login',
    schema: 'LoginResponse',
    from: { email: 'body field email', password: 'body field password' },
    variables: (req) => loginBody(req.body),
    jsonBody: true,
    tenant: 'path-or-host',
    openapi: {
      summary: 'Log in with e-mail and password',
      operationId: 'login',
      tag: 'auth',
      returns: 'A token and the user',
      public: true,
      errors: {
        400: 'Bad body, or an unknown query parameter',
        401: 'Wrong e-mail or password',
        403:
          'The company requires a verified e-mail and this account has not opened its link yet (EMAIL_NOT_VERIFIED), ' +
          'or signs in with its own identity provider only (loginStrategy 1: FORBIDDEN, saying where to sign in)',
        404: 'x-app-path or x-app-host names no company (NOT_FOUND)',
      },
      body: {
        type: 'object',
        required: ['email', 'password'],
        properties: { email: { type: 'string' }, password: { type: 'string' } },
      },
    },
  },
  {
    method: 'POST',
    path: '/auth/sso/exchange',
    document: RestExchangeLoginCodeDocument,
    field: 'exchangeLoginCode',
    schema: 'LoginResponse',
    from: { code: 'body field code' },
    variables: (req) => loginCodeBody(req.body),
    jsonBody: true,
    tenant: 'path-or-host',
    openapi: {
      summary: 'Turn the one-time code of a single sign-on into a token (as POST /auth/login answers)',
      operationId: 'exchangeLoginCode',
      tag: 'auth',
      returns: 'A token and the user, as POST /auth/login returns them',
      public: true,
      noTenantHeaders: true,
      errors: {
        400: 'Bad body (a JSON object with a string code, nothing else), or an unknown query parameter',
        404: 'The code is invalid, expired (60 seconds) or already used (NOT_FOUND)',
      },
      body: {
        type: 'object',
        required: ['code'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', description: 'The `code` of the address GET /auth/sso/callback sent the app to.' },
        },
      },
    },
  },
  {
    method: 'GET',
    path: '/auth/sso/methods',
    document: RestSignInMethodsDocument,
    field: 'signInMethods',
    schema: 'SignInMethods',
    from: { company: 'query parameter company', redirect: 'query parameter redirect' },
    variables: (req) => signInMethodsQuery(req.query),
    query: ['company', 'redirect'],
    tenant: 'path-or-host',
    openapi: {
      summary: "How people sign in to a company: what its login page offers, with each provider's start address",
      operationId: 'signInMethods',
      tag: 'auth',
      returns: 'The methods',
      public: true,
      noTenantHeaders: true,
      errors: {
        400: 'No company, a redirect that is not a path of the app, or another query parameter',
        404: 'No open company has that appPath or code (NOT_FOUND)',
      },
      query: [
        {
          name: 'company',
          in: 'query',
          required: true,
          description: "The company's appPath or code.",
          schema: { type: 'string', maxLength: 100 },
        },
        {
          name: 'redirect',
          in: 'query',
          description: 'The path of the app a sign-in returns to, written into each startUrl (default /).',
          schema: { type: 'string', maxLength: 1000, default: '/' },
        },
      ],
    },
  },
];

/** "METHOD /path/{param}", as the OpenAPI document and the response schemas name a route. */
export const routeKey = (route: RestRoute) => `${route.method} ${openApiPath(route.path)}`;
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
