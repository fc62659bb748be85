// Named leases for work that must run in one process at a time across replicas (the notifications tick's
// time-based triggers, once per period). PostgreSQL: a row of prode_meta.lease (migration
// 20261123170000_replica_counters_and_leases), taken by one conditional upsert, so of processes asking at once one
// gets it; it ends by itself, so a process that dies holding it blocks nobody for longer than its term. SQLite: its
// gateway is one process, so the lease is always its own.
import { providerOf, type Db } from './client.ts';
import { Prisma } from './sql.ts';
import { derived, META_TABLES, metaTable, query, rowsOf, type RowOf } from './typed-sql.ts';

const l = metaTable('lease', 'l');
const excluded = derived<RowOf<typeof META_TABLES.lease>>('EXCLUDED');

/** Takes the lease unless a holder's term runs past `now`: one row when taken, none when not. */
const take = query(
  { holder: 'string' },
  (name: string, holder: string, until: Date, now: Date) =>
    Prisma.sql`
    INSERT INTO ${l} (${l.name('name', 'holder', 'until')}) VALUES (${name}, ${holder}, ${until}::timestamp)
    ON CONFLICT (${l.name('name')}) DO UPDATE SET ${l.name('holder')} = ${excluded.c('holder')},
      ${l.name('until')} = ${excluded.c('until')}
    WHERE ${l.c('until')} <= ${now}::timestamp
    RETURNING ${l.c('holder')} AS "holder"`,
);

/** True when this holder took the lease `name` for `ms` from `now`: no one held it, or their term had ended. */
export async function takeLease(
  prisma: Db,
  name: string,
  holder: string,
  ms: number,
  now = new Date(),
): Promise<boolean> {
  if (providerOf(prisma) === 'sqlite') return true;
  const until = new Date(now.getTime() + ms);
  const taken = await rowsOf(prisma, take, name, holder, until, now);
  return taken.length === 1;
}

/** This file's statements, for the test that runs each on PostgreSQL (test/db/typed-sql.test.ts). */
export const leaseSql = { take };
