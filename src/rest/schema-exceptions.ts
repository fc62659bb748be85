// What the GraphQL types cannot say about a REST response, by `Type.field`: the derived schema of that key is
// replaced by the one here (src/rest/schema-from-operations.ts). Keep it short: a rule the schema can carry
// belongs in the schema.
type Schema = Record<string, unknown>;

const LOGIN_STRATEGY: Schema = { enum: [0, 1] };

export const EXCEPTIONS: Record<string, Schema> = {
  // An Int in GraphQL (an input may set it), held to 0 or 1 by domain/company-settings.ts.
  'Company.loginStrategy': LOGIN_STRATEGY,
  'CompanyCompact.loginStrategy': LOGIN_STRATEGY,
};

/** Every error returns this body (src/http/error-body.ts): it is no GraphQL type. */
export const ERROR_BODY: Schema = {
  type: 'object',
  required: ['statusCode', 'error', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string' },
    code: { type: 'string' },
    message: { type: 'string' },
  },
  additionalProperties: false,
};
