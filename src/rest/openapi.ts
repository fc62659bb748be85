// The OpenAPI 3.1 document of the REST routes, built from the route table and the JSON Schemas derived from their
// stored operations: the same schemas the contract tests hold the responses to.
import { Kind, print, type GraphQLSchema } from 'graphql';
import { EXPORT_ROUTES, type ExportRoute } from './exports.ts';
import { openApiPath, REST_ROUTES, routeKey, type RestRoute } from './route-table.ts';
import { restSchemas } from './schema-from-operations.ts';

type Json = Record<string, unknown>;

/** OpenAPI keeps schemas under components/schemas; rewrite the $defs references. */
const toComponents = <T>(schema: T): T =>
  JSON.parse(JSON.stringify(schema).replaceAll('#/$defs/', '#/components/schemas/'));

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const json = (schema: object) => ({ 'application/json': { schema } });
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

// Any route may respond with these, whatever its own errors are.
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

export function openApiDocument(schema: GraphQLSchema): Json {
  const doc = baseDocument(schema);
  for (const item of Object.values(
    doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
  )) {
    for (const op of Object.values(item)) {
      // Every route refuses a query parameter it does not take; the search's own 400 says so already.
      op.responses = { 400: UNKNOWN_QUERY, ...op.responses, ...OPERATIONAL_ERRORS };
    }
  }
  // An export's 429 has causes of its own besides the rate limit.
  for (const route of EXPORT_ROUTES) {
    const item = (doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[
      openApiPath(route.path)
    ];
    item.get.responses[429] = errorResponse(EXPORT_BUSY);
  }
  return doc;
}

// No jsonSchemaDialect: the 3.1 default (the OAS base dialect, JSON Schema 2020-12 plus OpenAPI's keywords) is what
// the schemas are written in, and naming plain 2020-12 instead makes Swagger UI show a warning box on /docs.
function baseDocument(schema: GraphQLSchema): Json {
  const { $defs, responses } = restSchemas(schema, Object.fromEntries(REST_ROUTES.map((r) => [routeKey(r), r])));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prode gateway REST API',
      version: '1.0.0',
      description:
        'The REST routes of the prediction-game platform. Each is a stored GraphQL operation on POST /graphql, whose ' +
        'data it returns unchanged. Errors return { statusCode, error, code, message }. A query parameter a route ' +
        'does not take is a 400 naming it; a known path asked with a method it does not serve is a 405 ' +
        '(METHOD_NOT_ALLOWED) whose Allow header lists the methods it serves; an unknown path is a 404.',
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
    paths: pathsOf(responses),
  };
}

/** A path parameter: an Int variable is a positive id (inputs.ts `positiveIntParam`), anything else a string. */
function pathParameter(route: RestRoute, name: string) {
  const operation = route.document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const variable = operation?.variableDefinitions?.find((v) => v.variable.name.value === name);
  const isInt = variable?.type.kind === Kind.NON_NULL_TYPE && print(variable.type.type) === 'Int';
  return { name, in: 'path', required: true, schema: isInt ? { type: 'integer', minimum: 1 } : { type: 'string' } };
}

function pathsOf(responses: Record<string, object>) {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of REST_ROUTES) {
    const { openapi: o } = route;
    const params = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => pathParameter(route, name));
    const headers = o.noTenantHeaders ? [] : route.tenant === 'company' ? [APP_COMPANY] : APP_HEADERS;
    const errors = Object.fromEntries(Object.entries(o.errors).map(([status, text]) => [status, errorResponse(text)]));
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = {
      summary: o.summary,
      operationId: o.operationId,
      tags: [o.tag],
      ...(o.public ? { security: [] } : {}),
      parameters: [...params, ...(o.query ?? []), ...headers],
      ...(o.body ? { requestBody: { required: true, content: json(o.body) } } : {}),
      responses: {
        200: { description: o.returns, content: json(toComponents(responses[routeKey(route)])) },
        ...errors,
        ...(o.public ? {} : AUTH_ERRORS),
        ...(route.jsonBody ? { 415: NOT_JSON } : {}),
      },
    };
  }
  for (const route of EXPORT_ROUTES) (paths[openApiPath(route.path)] ??= {}).get = exportOperation(route);
  return { ...paths, ...SSO_PATHS };
}

// The single sign-on routes a browser is sent to (src/http/sso-routes.ts): no JSON, redirects and pages.
const redirect = (description: string) => ({
  description,
  headers: { location: { description: 'Where the browser goes next.', schema: { type: 'string', format: 'uri' } } },
});
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const queryParam = (name: string, description: string, schema: object, required = false) => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});
const START_REFUSALS =
  'invalid_provider, unknown_company, company_provider_only (Google under loginStrategy 1), google_disabled, ' +
  'google_unavailable (the platform has no Google client), no_company_provider, provider_unavailable, rate_limited';
const CALLBACK_REFUSALS =
  'browser_mismatch (not the browser that started), provider_refused, sign_in_rejected (state, nonce, PKCE or the ' +
  'ID token failed a check, or another issuer answered), email_missing, email_not_verified, account_linked, ' +
  'not_admitted (sign-up closed and the domain not listed), company_full, account_deactivated, unknown_company, ' +
  'provider_unavailable, rate_limited, try_again';

const SSO_PATHS: Record<string, Record<string, Json>> = {
  '/auth/sso/start': {
    get: {
      summary: 'Begin a sign-in with Google or the company provider (a browser is sent here)',
      description:
        'Answers 302 to the provider with state, nonce and a PKCE challenge, and sets the HttpOnly cookie ' +
        'prode_sso (path /auth/sso, 10 minutes) that binds the sign-in to this browser. GET /auth/sso/methods lists ' +
        "the providers a company offers, each with this address filled in. A refusal goes back to the app's " +
        `redirect with ?error=<reason>: ${START_REFUSALS}.`,
      operationId: 'startSsoSignIn',
      tags: ['auth'],
      security: [],
      parameters: [
        queryParam('company', "The company's appPath or code.", { type: 'string', maxLength: 100 }, true),
        queryParam('provider', 'Which provider.', { enum: ['google', 'company'] }, true),
        queryParam(
          'redirect',
          'The path of the app to return to: one leading /, no host, no backslash (default /). /graphiql, where ' +
            "the explorer is served, returns to the gateway's explorer.",
          { type: 'string', maxLength: 1000, default: '/' },
        ),
      ],
      responses: {
        302: redirect(`To the provider; or, refused, to the app's redirect with ?error= (${START_REFUSALS})`),
        400: htmlPage('A redirect that is not a path of the app: a page says why (invalid_redirect)'),
      },
    },
  },
  '/auth/sso/callback': {
    get: {
      summary: 'Where the provider sends the browser back (registered as the redirect URI at the provider)',
      description:
        'Takes the pending sign-in its state names (once), checks the prode_sso cookie, PKCE, the nonce and the ID ' +
        "token (issuer, audience, expiry, email_verified), finds, links or creates the person, and sends the app's " +
        'redirect a one-time ?code= that POST /auth/sso/exchange (or exchangeLoginCode) turns into a token within ' +
        '60 seconds. Where APP_URL is unset, that is GET /auth/sso/done. Clears the cookie.',
      operationId: 'finishSsoSignIn',
      tags: ['auth'],
      security: [],
      parameters: [
        queryParam('state', 'The state the sign-in started with.', { type: 'string', maxLength: 200 }, true),
        queryParam('code', "The provider's authorization code.", { type: 'string' }),
        queryParam('iss', "The provider's issuer (RFC 9207), where it sends one.", { type: 'string' }),
        queryParam('error', 'The provider refused or the person cancelled.', { type: 'string' }),
      ],
      responses: {
        302: redirect(`To the app's redirect with ?code=<one-time code>, or ?error= (${CALLBACK_REFUSALS})`),
        400: htmlPage('The state names no pending sign-in (unknown, expired or used): a page says so (invalid_state)'),
      },
    },
  },
  '/auth/sso/done': {
    get: {
      summary: 'The page a sign-in ends on when APP_URL is unset (the gateway is the app)',
      operationId: 'ssoDone',
      tags: ['auth'],
      security: [],
      parameters: [
        queryParam('code', 'The one-time code, for POST /auth/sso/exchange.', { type: 'string' }),
        queryParam('error', 'Why the sign-in did not finish.', { type: 'string' }),
        queryParam('redirect', 'The path the sign-in asked to return to.', { type: 'string' }),
      ],
      responses: {
        200: htmlPage('Signed in: the page shows the code and how to exchange it'),
        400: htmlPage('The sign-in did not finish: the page names the reason'),
      },
    },
  },
};

const EXPORT_BUSY =
  'Too many requests from this address (RATE_LIMITED), or an export of the caller already under way, or ' +
  'EXPORT_MAX_CONCURRENT exports running on the server; see retry-after';

/** A CSV export: streamed text/csv, not a stored operation (src/rest/exports.ts). */
function exportOperation(route: ExportRoute): Json {
  const { openapi: o } = route;
  const params = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  }));
  return {
    summary: o.summary,
    description:
      'RFC 4180 CSV in UTF-8: a header row, CRLF line ends, fields holding a comma, a quote, CR or LF quoted, ' +
      "quotes doubled. Streamed as it is read. A cell starting with =, +, -, @, tab or CR gets a leading ' " +
      '(a negative number stays as it is) so that spreadsheets do not run it as a formula. Players are refused ' +
      '(403); one export at a time per person.',
    operationId: o.operationId,
    tags: ['exports'],
    parameters: [...params, ...(o.query ?? []), ...APP_HEADERS],
    responses: {
      200: {
        description: `The CSV file. Columns: ${o.columns}.`,
        headers: {
          'content-disposition': {
            description: 'attachment; filename="<name>.csv"',
            schema: { type: 'string' },
          },
        },
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      ...Object.fromEntries(Object.entries(o.errors).map(([status, text]) => [status, errorResponse(text)])),
      401: errorResponse('No valid Bearer token'),
      403: errorResponse('A player, or a credential that may not act on the named company (FORBIDDEN)'),
    },
  };
}
