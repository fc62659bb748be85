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
  return paths;
}

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
