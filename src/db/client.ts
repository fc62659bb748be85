// The one place that picks the Prisma client and driver adapter for the configured database.
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { adapterFactory, describeTarget, type AdapterOptions, type DatabaseTarget } from './adapters.ts';
import { keepingConnected, rowReader, type RowReader } from '../engine/db/row-reader.ts';
import { sqlLoaderRows } from '../engine/db/loader-sql.ts';
import { prismaLoaderRows, type LoaderRows } from './loader-rows.ts';
import { statementNamer } from '../engine/db/statement-names.ts';
import {
  tableVersionsReader,
  TransactionTracker,
  trackTransactions,
  type TableVersions,
} from '../engine/cache/table-versions.ts';
import { countingAdapterFactory } from './sql-stats.ts';
import { versionsConnection } from '../engine/cache/versions-connection.ts';
import { StorageWatch, watchingStorage } from './storage-watch.ts';
import { FULL_DB, type DbEngine } from '../engine/index.ts';

/** Both generated clients have the same API; the SQLite one's types stand for both. */
export type Db = SqliteClient;
/** The client inside an interactive transaction (`db.$transaction(async (tx) => ...)`). */
export type Tx = Prisma.TransactionClient;
import type { Prisma } from '../generated/sqlite/client.ts';
export type { Prisma };
export * from './enums.ts';

export interface Database {
  prisma: Db;
  provider: DatabaseTarget['provider'];
  description: string;
  /** Resolves when the database responds to a trivial query. */
  ping(): Promise<void>;
  /**
   * SQLite: set since a write failed for want of space ("database or disk is full"), until probeStorage()'s write
   * commits; always null on PostgreSQL, whose server watches its own disk.
   */
  storageFull(): { since: Date } | null;
  /** Writes a few fresh pages and takes them back in one transaction; on success storageFull() is null again. */
  probeStorage(): Promise<void>;
  /** Every table's version; null while none can be given (src/engine/cache/table-versions.ts). */
  tableVersions(duringTransaction?: boolean): Promise<TableVersions | null>;
  /** PostgreSQL: how many statement texts are kept prepared (src/engine/db/statement-names.ts); 0 otherwise. */
  preparedStatements(): number;
  close(): Promise<void>;
}

/** SQLite's page cache per connection, in KiB (a ceiling: pages are taken as they are read). */
const SQLITE_CACHE_KIB = 128 * 1024;

const opened = new WeakMap<object, { provider: DatabaseTarget['provider']; loaderRows: LoaderRows }>();

/**
 * The provider of a client opened by openDatabase, for the few statements written per provider (claims with SKIP
 * LOCKED, state shared by replicas), so that code taking a Db need not be handed it separately.
 */
export function providerOf(prisma: Db): DatabaseTarget['provider'] {
  return openedBy(prisma, 'providerOf').provider;
}

/**
 * The reads of the loaders and of authentication (src/db/loader-rows.ts): Prisma's, or the engine's SQL where
 * src/engine/index.ts turns it on.
 */
export function loaderRowsOf(prisma: Db): LoaderRows {
  return openedBy(prisma, 'loaderRowsOf').loaderRows;
}

/** The provider of a transaction's client: Prisma's clients (the transaction's too) carry it as `_activeProvider`. */
export function providerOfTx(tx: Tx): DatabaseTarget['provider'] {
  const provider = (tx as unknown as { _activeProvider?: string })._activeProvider;
  if (provider !== 'sqlite' && provider !== 'postgresql') throw new Error(`providerOfTx: unknown provider ${provider}`);
  return provider;
}

function openedBy(prisma: Db, asker: string) {
  const found = opened.get(prisma);
  if (!found) throw new Error(`${asker}: this client was not opened by openDatabase`);
  return found;
}

/**
 * Opens the database. `engine` (src/engine/index.ts; every part on when not given) says which speed-only parts wrap
 * Prisma's adapter: without them Prisma reads every row and no table versions are read.
 */
export async function openDatabase(
  target: DatabaseTarget,
  options: AdapterOptions & { engine?: DbEngine } = {},
): Promise<Database> {
  const engine = options.engine ?? FULL_DB;
  const transactions = new TransactionTracker();
  const namer =
    target.provider === 'postgresql' && options.preparedStatements !== false && engine.preparedStatements
      ? statementNamer()
      : undefined;
  const storage = new StorageWatch();
  const base = adapterFactory(target, { ...options, namer });
  const watched = target.provider === 'sqlite' ? watchingStorage(base, storage) : base;
  const counted = countingAdapterFactory(engine.tableVersions ? trackTransactions(watched, transactions) : watched);
  // The row reader sends its statements on the adapter Prisma connected: this keeps a hold of it.
  const adapter = engine.rowReader ? keepingConnected(counted) : { factory: counted, connected: () => null };
  // The one cast between the providers, here where the client is picked: both clients are generated from one
  // schema, but TypeScript cannot prove their generic query types equal (aggregate's conditional types, the
  // isolation levels of $transaction). Everything else takes a Db or a Tx without one.
  const prisma =
    target.provider === 'sqlite'
      ? new SqliteClient({ adapter: adapter.factory })
      : (new PostgresClient({ adapter: adapter.factory }) as unknown as SqliteClient);
  const readRows: RowReader = engine.rowReader
    ? rowReader(target.provider, async () => {
        if (!adapter.connected()) await prisma.$connect();
        return adapter.connected()!;
      })
    : (query) => prisma.$queryRaw(query);
  const loaderRows = engine.sqlLoaders ? sqlLoaderRows(target.provider, readRows) : prismaLoaderRows(prisma);
  opened.set(prisma, { provider: target.provider, loaderRows });
  if (target.provider === 'sqlite') {
    // WAL lets readers proceed while one writer commits; busy_timeout waits instead of failing with SQLITE_BUSY.
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
    // A page cache of up to 128 MiB (SQLite's default is 2 MiB): a rescoring batch writes tens of MiB of pages, and
    // with the default they spill to the WAL mid-transaction and are read back (decision 0034: 70 s -> 52-56 s).
    await prisma.$queryRawUnsafe(`PRAGMA cache_size = -${SQLITE_CACHE_KIB}`);
  }
  const versions =
    target.provider === 'postgresql' && engine.tableVersions
      ? versionsConnection(target.url, options.statementTimeoutMs)
      : undefined;
  const tableVersions = engine.tableVersions
    ? tableVersionsReader(target.provider, prisma, transactions, versions?.query)
    : async () => null;
  return {
    prisma,
    provider: target.provider,
    description: describeTarget(target),
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    storageFull: () => storage.full,
    probeStorage: async () => {
      if (target.provider !== 'sqlite') return;
      // A table made, filled past a page and dropped, committed: the file must grow by a few pages, as the writes
      // that failed had to. Run only while storage.full is set.
      await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('CREATE TABLE "_prode_storage_probe" (b BLOB)');
        await tx.$executeRawUnsafe('INSERT INTO "_prode_storage_probe" VALUES (zeroblob(8192))');
        await tx.$executeRawUnsafe('DROP TABLE "_prode_storage_probe"');
      });
      storage.full = null;
    },
    tableVersions,
    preparedStatements: () => namer?.size ?? 0,
    close: async () => {
      await Promise.all([prisma.$disconnect(), versions?.close()]);
    },
  };
}
