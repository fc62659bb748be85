// The engine's row reader (src/engine/db/row-reader.ts) wired as openDatabase (src/db/client.ts) wires it: on the
// driver adapter a Prisma client connected, behind the statement counter. For tests that send it statements of their
// own; the product reaches it only through loaderRowsOf, which the engine tests also compare.
import type { Db } from '../../src/db/client.ts';
import { adapterFactory, type DatabaseTarget } from '../../src/db/adapters.ts';
import { countingAdapterFactory } from '../../src/db/sql-stats.ts';
import { keepingConnected, rowReader, type RowReader } from '../../src/engine/db/row-reader.ts';
import { PrismaClient as PostgresClient } from '../../src/generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../../src/generated/sqlite/client.ts';

export interface OpenedRowReader {
  read: RowReader;
  /** The client whose connection the reader uses: disconnecting it makes the reader connect it again. */
  prisma: Db;
  close(): Promise<void>;
}

/** A row reader over the database at `target`, on a client of its own. */
export function openRowReader(target: DatabaseTarget): OpenedRowReader {
  const adapter = keepingConnected(countingAdapterFactory(adapterFactory(target, { poolMax: 2 })));
  const prisma =
    target.provider === 'sqlite'
      ? new SqliteClient({ adapter: adapter.factory })
      : (new PostgresClient({ adapter: adapter.factory }) as unknown as SqliteClient);
  const read = rowReader(target.provider, async () => {
    if (!adapter.connected()) await prisma.$connect();
    return adapter.connected()!;
  });
  return { read, prisma, close: () => prisma.$disconnect() };
}
