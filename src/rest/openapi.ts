// The OpenAPI 3.1 document of the REST routes, built from the same JSON Schemas the contract tests use.
import { $defs, routeResponses } from './schemas.ts';

type Json = Record<string, unknown>;

/** OpenAPI keeps schemas under components/schemas; rewrite the $defs references. */
const toComponents = <T>(schema: T): T =>
  JSON.parse(JSON.stringify(schema).replaceAll('#/$defs/', '#/components/schemas/'));

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const ok = (route: string, description: string) => ({
  description,
  content: { 'application/json': { schema: toComponents(routeResponses[route]) } },
});
const pathInt = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description,
});
const APP_HEADERS = [
  header('x-app-path', "The tenant by its appPath (e.g. demo). Without tenant headers: the caller's own company."),
  header('x-app-host', 'The tenant by its custom domain (e.g. prode.globex.test).'),
];
const APP_COMPANY = header(
  'x-app-company',
  'Tenant override (company id or code), honoured only for resellers managing that company and for managers.',
);
const AUTH_ERRORS = {
  401: errorResponse('No valid Bearer token'),
  403: errorResponse('The credential may not act on the named company'),
};

// Any route may answer these, whatever its own errors are.
const OPERATIONAL_ERRORS = {
  413: errorResponse('The body is larger than BODY_LIMIT_BYTES (PAYLOAD_TOO_LARGE)'),
  429: errorResponse('Too many requests from this address, or too many logins (RATE_LIMITED); see retry-after'),
  503: errorResponse(
    'The database is unavailable (SERVICE_UNAVAILABLE), or has no space left for a write (STORAGE_FULL)',
  ),
  504: errorResponse('The request exceeded REQUEST_TIMEOUT_MS (REQUEST_TIMEOUT); a write may still complete'),
};

const UNKNOWN_QUERY = errorResponse('A query parameter this route does not take (BAD_USER_INPUT)');
// Routes with a JSON body refuse any other content type.
const NOT_JSON = errorResponse('A body that is not application/json (UNSUPPORTED_MEDIA_TYPE)');

export function openApiDocument(): Json {
  const doc = baseDocument();
  for (const item of Object.values(
    doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
  )) {
    for (const op of Object.values(item)) {
      // Every route refuses a query parameter it does not take; the search's own 400 says so already.
      op.responses = { 400: UNKNOWN_QUERY, ...op.responses, ...OPERATIONAL_ERRORS };
    }
  }
  return doc;
}

// No jsonSchemaDialect: the 3.1 default (the OAS base dialect, JSON Schema 2020-12 plus OpenAPI's keywords) is what
// the schemas are written in, and naming plain 2020-12 instead makes Swagger UI show a warning box on /docs.
function baseDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prode gateway REST API',
      version: '1.0.0',
      description:
        'The REST routes of the prediction-game platform. Each is a stored GraphQL operation on POST /graphql, whose ' +
        'data it answers unchanged. Errors answer { statusCode, error, code, message }. A query parameter a route ' +
        'does not take is a 400 naming it; a known path asked with a method it does not answer is a 405 ' +
        '(METHOD_NOT_ALLOWED) whose Allow header lists the methods it answers; an unknown path is a 404.',
      // The project grants no license (package.json is private, with no license file): say so, in SPDX's form
      // for a license outside its list.
      license: { name: 'Proprietary: no license granted', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document is served by the service it describes, under whatever address it is reached at.
    servers: [{ url: '/', description: 'The service that serves this document' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token from POST /auth/login.',
        },
      },
      schemas: toComponents($defs),
    },
    paths: {
      '/posts/{id}': {
        get: {
          summary: 'A community post of the company',
          operationId: 'getPost',
          tags: ['community'],
          parameters: [pathInt('id'), APP_COMPANY],
          responses: {
            200: ok('GET /posts/{id}', 'The post'),
            400: errorResponse('Malformed id, or an unknown query parameter'),
            ...AUTH_ERRORS,
            404: errorResponse('No such post in this company'),
          },
        },
      },
      '/posts/{postId}/comments': {
        get: {
          summary: 'The comments of a post, oldest first',
          operationId: 'getPostComments',
          tags: ['community'],
          parameters: [pathInt('postId'), APP_COMPANY],
          responses: {
            200: ok('GET /posts/{postId}/comments', 'The comments'),
            400: errorResponse('Malformed postId, or an unknown query parameter'),
            ...AUTH_ERRORS,
            404: errorResponse('No such post in this company'),
          },
        },
      },
      '/invitations/jwt/{jwt}': {
        get: {
          summary: 'The invitation a signed link points to (public)',
          operationId: 'getInvitationByJwt',
          tags: ['invitations'],
          security: [],
          parameters: [{ name: 'jwt', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: ok('GET /invitations/jwt/{jwt}', 'The invitation'),
            404: errorResponse('The link is invalid, expired or revoked'),
          },
        },
      },
      '/invitations/{id}': {
        patch: {
          summary: 'Change an invitation (admins of its company, its reseller, managers)',
          operationId: 'updateInvitation',
          tags: ['invitations'],
          parameters: [pathInt('id'), ...APP_HEADERS],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  minProperties: 1,
                  additionalProperties: false,
                  properties: {
                    externalId: { type: 'string' },
                    name: { type: 'string' },
                    email: { type: 'string', format: 'email' },
                    role: { enum: ['player', 'admin', 'reseller', 'manager'] },
                    company: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
                    areaLevel1: { type: ['object', 'null'], required: ['id'], properties: { id: { type: 'integer' } } },
                    areaLevel2: { type: ['object', 'null'], required: ['id'], properties: { id: { type: 'integer' } } },
                    areaLevel3: { type: ['object', 'null'], required: ['id'], properties: { id: { type: 'integer' } } },
                  },
                },
              },
            },
          },
          responses: {
            200: ok('PATCH /invitations/{id}', 'The changed invitation'),
            400: errorResponse('Bad body, role, e-mail or area, or an unknown query parameter'),
            ...AUTH_ERRORS,
            404: errorResponse('No such invitation in this company'),
            409: errorResponse('The e-mail is already invited or registered'),
            415: NOT_JSON,
          },
        },
      },
      '/companies/search': {
        get: {
          summary: 'Companies the caller may see, by name, code or appPath',
          operationId: 'searchCompanies',
          tags: ['companies'],
          parameters: [
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
            ...APP_HEADERS,
          ],
          responses: {
            200: ok('GET /companies/search', 'Compact companies'),
            400: errorResponse('Bad skip, take or search, or another query parameter'),
            ...AUTH_ERRORS,
          },
        },
      },
      '/tournaments/me': {
        get: {
          summary: "The company's tournaments with the caller's own predictions",
          operationId: 'myTournaments',
          tags: ['tournaments'],
          parameters: APP_HEADERS,
          responses: { 200: ok('GET /tournaments/me', 'Tournaments'), ...AUTH_ERRORS },
        },
      },
      '/auth/login': {
        post: {
          summary: 'Log in with e-mail and password',
          operationId: 'login',
          tags: ['auth'],
          security: [],
          parameters: APP_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['email', 'password'],
                  properties: { email: { type: 'string' }, password: { type: 'string' } },
                },
              },
            },
          },
          responses: {
            200: ok('POST /auth/login', 'A token and the user'),
            400: errorResponse('Bad body, or an unknown query parameter'),
            401: errorResponse('Wrong e-mail or password'),
            403: errorResponse(
              'The company requires a verified e-mail and this account has not opened its link yet ' +
                '(EMAIL_NOT_VERIFIED)',
            ),
            404: errorResponse('x-app-path or x-app-host names no company (NOT_FOUND)'),
            415: NOT_JSON,
          },
        },
      },
    },
  };
}
