// What a REST response's status is for a domain error code, and the client errors the routes find before any GraphQL
// runs. The body they respond with is src/http/error-body.ts.
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';

export function statusOf(code: string | undefined): number {
  return ERROR_STATUS[code as ErrorCode] ?? (code?.startsWith('GRAPHQL_') ? 400 : 500);
}

/** A client error found before any GraphQL runs (bad path parameter, query string or body). */
export class RestInputError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
    readonly code = 'BAD_USER_INPUT',
  ) {
    super(message);
  }
}
