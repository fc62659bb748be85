// Telling "the database is not there" apart from our own bugs: the first is a 503 the client may retry, the
// second a 500 we must fix. Prisma wraps driver errors differently per engine path, so walk the whole cause chain.

// Prisma: can't reach server, server closed the connection, pool timeout, connection error.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
// Node sockets and PostgreSQL SQLSTATEs for "server going away" (57P01-03), "cannot connect now" and connection
// exceptions (08xxx).
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SQLSTATE_UNAVAILABLE = /^(57P0[123]|08\d{3})$/;
// Driver-adapter error kinds and messages that carry no code.
const MESSAGE = /(Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database server|server closed the connection|DatabaseNotReachable|ConnectionClosed|SocketTimeout|database is locked)/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const o = e as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; originalCode?: unknown };
    for (const c of [o.code, o.originalCode]) {
      if (typeof c === 'string' && (PRISMA_CODES.has(c) || NODE_CODES.has(c) || SQLSTATE_UNAVAILABLE.test(c))) return true;
    }
    if (typeof o.kind === 'string' && MESSAGE.test(o.kind)) return true;
    if (typeof o.message === 'string' && MESSAGE.test(o.message)) return true;
    e = o.originalError ?? o.cause;
  }
  return false;
}
