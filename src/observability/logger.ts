// The one JSON logger (pino, as Fastify's own): start-up messages, the per-request line and everything the app
// logs go through it, so a log pipeline reads one format from the first line to the last.
import { pino, type Logger } from 'pino';
import type { Config } from '../config.ts';
import { redactUrl } from './redact.ts';

/** Where log lines go; tests pass a stream to read them. */
export interface LogStream {
  write(line: string): void;
}

export function createLogger(config: Pick<Config, 'logLevel'>, stream?: LogStream): Logger {
  const options = {
    level: config.logLevel,
    // Credentials never reach a log line (error objects logged whole may carry the request's headers).
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'headers.authorization'],
    // Invitation links carry their token in the path: log the route, not the token.
    serializers: {
      req: (req: { method: string; url: string; id?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        id: req.id,
        remoteAddress: req.ip,
      }),
    },
  };
  return stream ? pino(options, stream) : pino(options);
}

/**
 * For a failure before the configuration is known (its log level included): one JSON line on stderr, written
 * synchronously because the process exits right after.
 */
export function failureLogger(): Logger {
  return pino({ level: 'info' }, pino.destination({ dest: 2, sync: true }));
}
