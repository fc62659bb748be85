// The error body of every non-2xx REST answer (docs/design.md, "Errors").
import type { FastifyReply } from 'fastify';
import '../observability/request-outcome.ts';
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  408: 'Request Timeout',
};

export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, error: REASON[statusCode] ?? 'Error', code, message };
}

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

export function sendError(reply: FastifyReply, statusCode: number, code: string, message: string) {
  reply.request.outcome.errorCodes = [code];
  return reply
    .code(statusCode)
    .type('application/json')
    .send(errorBody(statusCode, code, message));
}
