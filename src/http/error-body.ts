// The error body of every non-2xx response that is not GraphQL's (docs/design.md, "Errors"): the REST routes, and the
// responses the HTTP plumbing gives before any face runs (deadline, response size, metrics, rate limit).
import type { FastifyReply } from 'fastify';
import '../observability/request-outcome.ts';

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

export function sendError(reply: FastifyReply, statusCode: number, code: string, message: string) {
  reply.request.outcome.errorCodes = [code];
  return reply
    .code(statusCode)
    .type('application/json')
    .send(errorBody(statusCode, code, message));
}
