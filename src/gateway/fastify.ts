// The Fastify instance and its server-wide options: body and parameter limits, deadlines, proxy trust, and the
// documented error body for the requests that never reach a route.
import type { Socket } from 'node:net';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify';
import type { Config } from '../config.ts';
import { errorBody } from '../http/error-body.ts';

export function createFastify(config: Config, logger: FastifyBaseLogger): FastifyInstance {
  return Fastify({
    loggerInstance: logger,
    // One line per request, written when its response is sent (src/observability/request-log.ts), instead of Fastify's
    // "incoming request" and "request completed" pair.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.http.bodyLimitBytes,
    // Socket-level deadline for clients that trickle their request; the whole-request one is registerRequestDeadline.
    requestTimeout: config.http.requestTimeoutMs,
    // X-Forwarded-For is believed only for the configured number of proxy hops (rate limits key on the address).
    trustProxy: (_address: string, hop: number) => hop < config.http.trustProxyHops,
    // Invitation tokens travel in the path (GET /invitations/jwt/:jwt) and are longer than the default 100.
    routerOptions: { maxParamLength: 2048 },
    requestIdHeader: 'x-request-id',
    frameworkErrors: (err, _request, rawReply) => respondUnroutable(err, rawReply as unknown as FastifyReply),
    clientErrorHandler: respondUnparsed,
    // Draining is ours (server.ts): Fastify's own 503 while closing would respond without the documented body.
    return503OnClosing: false,
    genReqId: () => crypto.randomUUID(),
  });
}

/** URLs the router cannot decode, parameters over maxParamLength: the documented error body. */
function respondUnroutable(err: FastifyError, reply: FastifyReply): void {
  reply
    .code(400)
    .type('application/json')
    .send(
      errorBody(
        400,
        'BAD_USER_INPUT',
        err.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid (bad percent-encoding)' : 'a path parameter is too long',
      ),
    );
}

/** Requests Node's HTTP parser refuses (malformed, headers over 16 KiB): the documented error body too. */
function respondUnparsed(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT';
  const [status, reason, message] = timedOut
    ? [408, 'Request Timeout', 'the request took too long to arrive']
    : err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
      : [400, 'Bad Request', 'the request is not valid HTTP'];
  const body = JSON.stringify(
    errorBody(status as number, timedOut ? 'REQUEST_TIMEOUT' : 'BAD_USER_INPUT', message as string),
  );
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Destroyed only if the client does not close its side: destroying at once, with the rest of its request
  // unread, makes the kernel send a reset that can discard the response before the client reads it.
  const timer = setTimeout(() => socket.destroy(), 2000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
