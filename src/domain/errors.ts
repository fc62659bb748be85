// Domain errors: what went wrong, as a code with details, raised by every layer below the faces (auth, game rules,
// resolvers' work) without knowing who responds. Each face maps them: GraphQL carries `extensions` as they are
// (graphql-js copies a thrown error's `extensions` onto the error it reports), REST responds with ERROR_STATUS[code]
// with the error body (docs/design.md, "Errors"). One table of codes to HTTP statuses, used by both.
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  QUERY_TOO_COSTLY: 400,
  RESPONSE_TOO_LARGE: 400,
  RATE_LIMITED: 429,
  PERSISTED_QUERY_NOT_IN_LIST: 400,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  STORAGE_FULL: 503,
  REQUEST_TIMEOUT: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class DomainError extends Error {
  readonly extensions: { code: ErrorCode } & Record<string, unknown>;

  constructor(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'DomainError';
    this.extensions = { code, ...extra };
  }

  get code(): ErrorCode {
    return this.extensions.code;
  }
}

function error(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return new DomainError(code, message, extra);
}

export const badInput = (message: string, argumentName?: string) =>
  error('BAD_USER_INPUT', message, argumentName ? { argumentName } : {});
export const unauthenticated = (message = 'a valid Bearer token is required') => error('UNAUTHENTICATED', message);
export const forbidden = (message: string) => error('FORBIDDEN', message);
export const notFound = (what: string, id?: number | string) =>
  error('NOT_FOUND', id === undefined ? `${what} not found` : `${what} ${id} not found`);
export const conflict = (message: string, argumentName?: string) =>
  error('CONFLICT', message, argumentName ? { argumentName } : {});
/** The credentials are right, but the company wants the account's e-mail confirmed first. */
export const emailNotVerified = (message: string) => error('EMAIL_NOT_VERIFIED', message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  error('RATE_LIMITED', message, { retryAfterSeconds });

/** "12,345", or "3.2e+21" past what digits can tell: counts are reported to people. */
export const formatCount = (n: number) => (n < 1e15 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(2));

// Refusals raised in GraphQL's hooks before execution carry their HTTP status (Apollo reads extensions.http).
const BEFORE_EXECUTION = { http: { status: 400 } };

/** Refused before it runs: the estimated objects of the response (src/graphql/cost.ts) are over GRAPHQL_MAX_COST. */
export const queryTooCostly = (cost: number, maxCost: number) =>
  error(
    'QUERY_TOO_COSTLY',
    `the query may cost ${formatCount(cost)} objects, over the limit of ${formatCount(maxCost)} (GRAPHQL_MAX_COST): ` +
      `ask for fewer nested lists, or pass take`,
    { limit: 'cost', cost: Math.round(Math.min(cost, Number.MAX_SAFE_INTEGER)), maxCost, ...BEFORE_EXECUTION },
  );
/** Bad input found before execution (a request-wide check such as text-inputs.ts). */
export const badInputBeforeExecution = (message: string, argumentName?: string) =>
  error('BAD_USER_INPUT', message, { ...(argumentName ? { argumentName } : {}), ...BEFORE_EXECUTION });
/** PERSISTED_OPERATIONS_ONLY: the document is not one of operations/manifest.json's, so it is not run. */
export const persistedQueryNotInList = (message: string) =>
  error('PERSISTED_QUERY_NOT_IN_LIST', message, BEFORE_EXECUTION);
/** Stopped while it ran, or refused when sent: the response grew past GRAPHQL_MAX_OBJECTS or
 * GRAPHQL_MAX_RESPONSE_BYTES. */
export const responseTooLarge = (message: string, limit: 'objects' | 'bytes') =>
  error('RESPONSE_TOO_LARGE', message, { limit });

export const STATEMENT_TIMEOUT_MESSAGE =
  'the database stopped a statement that ran past DB_STATEMENT_TIMEOUT_MS: ask for less, or try again later';

export const SERVICE_UNAVAILABLE_MESSAGE = 'the database is unavailable: try again shortly';

/** A write failed because the database has no space left (the disk is full): nothing of it was kept. */
export const STORAGE_FULL_MESSAGE =
  'the database has no space left for writes, so nothing was changed: try again later';
