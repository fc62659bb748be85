// Named leases for work that must run in one process at a time across replicas (the notifications tick's
// time-based triggers, once per period). PostgreSQL: a row of prode_meta.lease (migration
// 20261123170000_replica_counters_and_leases), taken by one conditional upsert, so of processes asking at once one
// gets it; it ends by itself, so a process that dies holding it blocks nobody for longer than its term. SQLite: its
// gateway is one process, so the lease is always its own.
import { providerOf, type Db } from './client.ts';

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
  const taken = await prisma.$queryRaw<Array<{ holder: string }>>`
    INSERT INTO prode_meta.lease AS l (name, holder, until) VALUES (${name}, ${holder}, ${until}::timestamp)
    ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
    WHERE l.until <= ${now}::timestamp
    RETURNING holder`;
  return taken.length === 1;
}
