// Telling "the database is not there" apart from our own bugs: the first is a 503 the client may retry, the
// second a 500 we must fix. Prisma wraps driver errors differently per engine path, so walk the whole cause chain.

// Prisma: can't reach server, server closed the connection, pool timeout, connection error.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
// Node sockets and PostgreSQL SQLSTATEs for "server going away" (57P01-03), "cannot connect now" and connection
// exceptions (08xxx).
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SQLSTATE_UNAVAILABLE = /^(57P0[123]|08\d{3})$/;
// Driver-adapter error kinds and messages that carry no code.
const MESSAGE = new RegExp(
  [
    'Connection terminated',
    'connection timeout',
    'timeout exceeded when trying to connect',
    "Can't reach database server",
    'server closed the connection',
    'DatabaseNotReachable',
    'ConnectionClosed',
    'SocketTimeout',
    'database is locked',
  ].join('|'),
  'i',
);

type Cause = {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  originalCode?: unknown;
};

/** The error and every error it wraps. */
function* causes(err: unknown): Generator<Cause> {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    yield e as Cause;
    e = (e as Cause).originalError ?? (e as Cause).cause;
  }
}

// Prisma's interactive transactions: no connection within maxWait (the database is saturated or away).
const TRANSACTION_NOT_STARTED = /Unable to start a transaction in the given time/i;
// ... and a transaction that ran past its timeout.
const TRANSACTION_EXPIRED = /Transaction already closed|expired transaction|transaction .*timeout/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (const o of causes(err)) {
    if (o.code === 'P2028' && typeof o.message === 'string' && TRANSACTION_NOT_STARTED.test(o.message)) return true;
    for (const c of [o.code, o.originalCode]) {
      if (typeof c === 'string' && (PRISMA_CODES.has(c) || NODE_CODES.has(c) || SQLSTATE_UNAVAILABLE.test(c)))
        return true;
    }
    if (typeof o.kind === 'string' && MESSAGE.test(o.kind)) return true;
    if (typeof o.message === 'string' && MESSAGE.test(o.message)) return true;
  }
  return false;
}

/**
 * PostgreSQL cancelled a statement that ran past statement_timeout (SQLSTATE 57014, DB_STATEMENT_TIMEOUT_MS), or a
 * write's transaction ran past its time (src/app/scope.ts).
 */
export function isStatementTimeout(err: unknown): boolean {
  for (const o of causes(err)) {
    if (o.code === '57014' || o.originalCode === '57014') return true;
    if (o.code === 'P2028' && typeof o.message === 'string' && TRANSACTION_EXPIRED.test(o.message)) return true;
    if (typeof o.message === 'string' && /canceling statement due to statement timeout/.test(o.message)) return true;
  }
  return false;
}

/** Prisma's unique-constraint violation: a concurrent writer got there first. */
export const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

const STORAGE_FULL_MESSAGE = /database or disk is full|Code: `(SQLITE_FULL|53100)`/;

/**
 * The database has no space left for a write: SQLite's SQLITE_FULL ("database or disk is full": the disk, or the
 * file's max_page_count; SQLite reports a write that met ENOSPC as SQLITE_FULL), PostgreSQL's disk_full (53100).
 * Prisma keeps the driver's error under meta.driverAdapterError.
 */
export function isStorageFull(err: unknown): boolean {
  for (const o of causes(err)) {
    for (const c of [o.code, o.originalCode]) if (c === 'SQLITE_FULL' || c === '53100') return true;
    if (typeof o.message === 'string' && STORAGE_FULL_MESSAGE.test(o.message)) return true;
    const adapterError = (o as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError;
    if (adapterError && adapterError !== err && isStorageFull(adapterError)) return true;
  }
  return false;
}
