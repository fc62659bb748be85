// Schema migrations plus the data steps some of them need (run once, right after their migration applies).
import { rebuildStandings } from '../game/standings.ts';
import type { DatabaseTarget } from '../db/adapters.ts';
import { openDatabase } from '../db/client.ts';
import { applyMigrations } from '../db/migrations.ts';

const DATA_STEPS: Array<{ migration: string; run: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void> }> = [
  {
    // Standings start from the predictions already scored.
    migration: '_tournament_standings',
    run: async (db) =>
      rebuildStandings(
        db.prisma,
        (await db.prisma.tournament.findMany({ select: { id: true } })).map((t) => t.id),
      ),
  },
];

export async function migrateDatabase(target: DatabaseTarget): Promise<string[]> {
  const applied = await applyMigrations(target);
  const steps = DATA_STEPS.filter((s) => applied.some((name) => name.endsWith(s.migration)));
  if (steps.length) {
    const db = await openDatabase(target, { poolMax: 2 });
    try {
      for (const step of steps) await step.run(db);
    } finally {
      await db.close();
    }
  }
  return applied;
}
