// The one logger (pino, as Fastify's own): start-up messages, the per-request line and everything the app logs go
// through it, so a log pipeline reads one format from the first line to the last. LOG_FORMAT=pretty turns the same
// lines into readable text for a person at a terminal (pino-pretty, formatted in the process: no worker thread).
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { Config } from '../config.ts';
import { redactUrl, withoutEmailAddresses } from './redact.ts';

/** Where log lines go; tests pass a stream to read them. */
export interface LogStream {
  write(line: string): void;
}

export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, stream?: LogStream): Logger {
  const options = {
    level: config.logLevel,
    // Credentials never reach a log line (error objects logged whole may carry the request's headers); nor do the
    // fields that would hold an e-mail address.
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      'req.headers["x-api-key"]',
      'headers.authorization',
      'email',
      'to',
      '*.email',
      '*.to',
    ],
    // Invitation links carry their token in the path: log the route, not the token.
    serializers: {
      req: (req: { method: string; url: string; id?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        id: req.id,
        remoteAddress: req.ip,
      }),
    },
    // The last safety net: an address that reached a line by a way no field above names (an SMTP server's error
    // text quoting its recipient, say) leaves it as "[e-mail]".
    hooks: { streamWrite: withoutEmailAddresses },
  };
  const out = stream ?? (config.logFormat === 'pretty' ? prettyStream() : undefined);
  return out ? pino(options, out) : pino(options);
}

const require = createRequire(import.meta.url);

/** Readable lines on stdout, each written before the call returns (nothing is lost to an exit right after). */
function prettyStream(): LogStream {
  // Loaded only when asked for: JSON logs do not pay for it.
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  const stdout = pino.destination({ dest: 1, sync: true });
  return { write: (line) => void stdout.write(format(line)) };
}

/**
 * For a failure before the configuration is known (its log level included): one JSON line on stderr, written
 * synchronously because the process exits right after.
 */
export function failureLogger(): Logger {
  return pino({ level: 'info' }, pino.destination({ dest: 2, sync: true }));
}
