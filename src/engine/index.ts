// The one place that decides which speed-only parts run, from ENGINE, ENGINE_OFF and the older per-part settings
// (GRAPHQL_JIT, GRAPHQL_SHARED_SUBTREES, RESPONSE_CACHE_MB, DB_PREPARED_STATEMENTS). The product's seams read the
// decision; none decides on its own. Why: docs/decisions/0020-engine-fenced-behind-one-switch.md.
import type { EngineMode, EnginePart } from './mode.ts';

export { ENGINE_PARTS, engineMode, type EngineMode, type EnginePart } from './mode.ts';

/** Each part on or off; `plain` has every one off. */
export interface Engine {
  mode: EngineMode;
  /** The parts ENGINE_OFF named (empty in plain mode, where all are off). */
  off: EnginePart[];
  jit: boolean;
  sharedSubtrees: boolean;
  sharedJson: boolean;
  leanResolvers: boolean;
  /** The loaders' and the auth rows' SQL; off, both read through Prisma's findMany and findFirst. */
  sqlLoaders: boolean;
  /** The row reader under that SQL; off, it goes through `$queryRaw`. */
  rowReader: boolean;
  db: DbEngine;
  /** The response cache, with the auth-row cache and the shared reads that follow it. */
  responseCache: boolean;
}

/** What openDatabase wraps around Prisma's adapter. */
export interface DbEngine {
  sqlLoaders: boolean;
  rowReader: boolean;
  /** Transaction tracking, the table-version reads and PostgreSQL's versions connection. */
  tableVersions: boolean;
  preparedStatements: boolean;
}

export interface EngineSettings {
  engine: { mode: EngineMode; off: EnginePart[] };
  graphqlJit: boolean;
  graphqlSharedSubtrees: boolean;
  responseCacheBytes: number;
  dbPreparedStatements: boolean;
}

export function engineFor(config: EngineSettings): Engine {
  const { mode, off } = config.engine;
  const on = (part: EnginePart) => mode === 'full' && !off.includes(part);
  const jit = on('jit') && config.graphqlJit;
  const sharedJson = on('shared-json');
  const tableVersions = on('table-versions');
  const sqlLoaders = on('sql-loaders');
  const db: DbEngine = {
    sqlLoaders,
    // The row reader only sends the loaders' SQL.
    rowReader: sqlLoaders && on('row-reader'),
    tableVersions,
    preparedStatements: on('prepared-statements') && config.dbPreparedStatements,
  };
  return {
    mode,
    off: mode === 'full' ? off : [],
    jit,
    // The shared-subtree executor runs inside the jit executor, and its responses need the shared JSON writer.
    sharedSubtrees: jit && sharedJson && on('shared-subtrees') && config.graphqlSharedSubtrees,
    sharedJson,
    leanResolvers: on('lean-resolvers'),
    sqlLoaders,
    rowReader: db.rowReader,
    db,
    // The cache trusts the table versions: without them nothing may be cached.
    responseCache: tableVersions && on('response-cache') && config.responseCacheBytes > 0,
  };
}

/** Every part on: for code that opens a database outside the server (scripts, tests) and is given no engine. */
export const FULL_DB: DbEngine = { sqlLoaders: true, rowReader: true, tableVersions: true, preparedStatements: true };
