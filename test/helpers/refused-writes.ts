// A real write failure for tests: a trigger that makes every INSERT or UPDATE of a table fail with `name` (its
// underscores as spaces) in the database's error, on SQLite or PostgreSQL, until it is taken away again.
import { providerOf, type Db } from '../../src/db/client.ts';

export async function refuseWrites(
  db: Db,
  { table, on, name }: { table: string; on: 'INSERT' | 'UPDATE'; name: string },
  refusing: boolean,
): Promise<void> {
  const message = name.replaceAll('_', ' ');
  if (providerOf(db) === 'sqlite') {
    await db.$executeRawUnsafe(
      refusing
        ? `CREATE TRIGGER ${name} BEFORE ${on} ON "${table}" BEGIN SELECT RAISE(ABORT, '${message}'); END`
        : `DROP TRIGGER ${name}`,
    );
    return;
  }
  if (refusing) {
    await db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '${message}'; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE ${on} ON "${table}"
      FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  } else {
    await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
    await db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  }
}
