// A row's lock held from another transaction, as a concurrent writer holds it, until released: for the PostgreSQL
// tests of who waits for whom (the rescoring runner, an import, a result).
import type { Db } from '../../src/db/client.ts';

/** Resolves once the lock is held; the function it returns releases it and waits for that transaction's end. */
export async function holdRowLock(db: Db, table: 'Tournament' | 'Match', id: number): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const holder = db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(`SELECT "id" FROM "${table}" WHERE "id" = $1 FOR NO KEY UPDATE`, id);
      held();
      await released;
    },
    { timeout: 30_000 },
  );
  await Promise.race([holding, holder]);
  return async () => {
    release();
    await holder;
  };
}
