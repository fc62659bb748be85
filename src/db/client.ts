// The one place that picks the Prisma client and driver adapter for the configured store.
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { adapterFactory, describeTarget, type AdapterOptions, type DatabaseTarget } from './adapters.ts';
import { statementNamer } from './statement-names.ts';
import { tableVersionsReader, TransactionTracker, trackTransactions, type TableVersions } from './data-version.ts';
import { countingAdapterFactory } from './sql-stats.ts';

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
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  /** Every table's write count; null while none can be given (data-version.ts). */
  tableVersions(duringTransaction?: boolean): Promise<TableVersions | null>;
  /** A token that changes whenever readable data may have changed (all tables); null while none can be given. */
  dataVersion(): Promise<string | null>;
  /** PostgreSQL: how many statement texts are kept prepared (src/db/statement-names.ts); 0 otherwise. */
  preparedStatements(): number;
  close(): Promise<void>;
}

const providers = new WeakMap<object, DatabaseTarget['provider']>();

/**
 * The provider of a client opened by openDatabase, for the few statements written per provider (claims with SKIP
 * LOCKED, state shared by replicas), so that code taking a Db need not be handed it separately.
 */
export function providerOf(prisma: Db): DatabaseTarget['provider'] {
  const provider = providers.get(prisma);
  if (!provider) throw new Error('providerOf: this client was not opened by openDatabase');
  return provider;
}

export async function openDatabase(target: DatabaseTarget, options: AdapterOptions = {}): Promise<Database> {
  const transactions = new TransactionTracker();
  const namer = target.provider === 'postgresql' && options.preparedStatements !== false ? statementNamer() : undefined;
  const adapter = countingAdapterFactory(
    trackTransactions(adapterFactory(target, { ...options, namer }), transactions),
  );
  // The one cast between the providers, here where the client is picked: both clients are generated from one
  // schema, but TypeScript cannot prove their generic query types equal (aggregate's conditional types, the
  // isolation levels of $transaction). Everything else takes a Db or a Tx without one.
  const prisma =
    target.provider === 'sqlite'
      ? new SqliteClient({ adapter })
      : (new PostgresClient({ adapter }) as unknown as SqliteClient);
  providers.set(prisma, target.provider);
  if (target.provider === 'sqlite') {
    // WAL lets readers proceed while one writer commits; busy_timeout waits instead of failing with SQLITE_BUSY.
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
  }
  const tableVersions = tableVersionsReader(target.provider, prisma, transactions);
  return {
    prisma,
    provider: target.provider,
    description: describeTarget(target),
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    tableVersions,
    dataVersion: async () => (await tableVersions())?.of() ?? null,
    preparedStatements: () => namer?.size ?? 0,
    close: () => prisma.$disconnect(),
  };
}
