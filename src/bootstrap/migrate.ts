// Schema migrations plus the data steps some of them need (run once, right after their migration applies).
import { keepPlayersInStandings, rebuildStandings } from '../game/standings.ts';
import { recountRoundWins } from '../game/round-wins.ts';
import type { DatabaseTarget } from '../db/adapters.ts';
import { openDatabase } from '../db/client.ts';
import { codesDifferingInCase } from '../db/company-code.ts';
import { applyMigrations, appliedMigrationNames, loadMigrations } from '../db/migrations.ts';

type Opened = Awaited<ReturnType<typeof openDatabase>>;

/**
 * Checks that run before a pending migration on a database that has data, to stop with a message that says what
 * to fix instead of the SQL error the migration would end with.
 */
const PRE_CHECKS: Array<{ migration: string; run: (db: Opened) => Promise<void> }> = [
  {
    // Its unique index on lower("code") cannot be built over codes that differ only in case. Which of them
    // clients mean is the operator's call, so nothing is renamed here.
    migration: '_company_code_case_insensitive',
    run: async (db) => {
      const groups = await codesDifferingInCase(db.prisma);
      if (groups.length === 0) return;
      throw new Error(
        `company codes must be unique without regard to case, and these differ only in case: ${groups.join(', ')}. ` +
          'Rename all but one of each (UPDATE "Company" SET "code" = \'...\' WHERE "id" = ...) and migrate again',
      );
    },
  },
];

const DATA_STEPS: Array<{ migration: string; run: (db: Opened) => Promise<void> }> = [
  {
    // Standings start from the predictions already scored.
    migration: '_tournament_standings',
    run: async (db) =>
      rebuildStandings(
        db.prisma,
        (await db.prisma.tournament.findMany({ select: { id: true } })).map((t) => t.id),
      ),
  },
  {
    // Round wins are counted from the predictions already scored: one set-based statement per tournament.
    migration: '_round_wins_standing',
    run: async (db) =>
      recountRoundWins(
        db.prisma,
        (await db.prisma.tournament.findMany({ select: { id: true } })).map((t) => t.id),
      ),
  },
  {
    // A standing for every player (the insert triggers keep it so from now on), none for those who do not play, and
    // round wins among players counted beside those among everyone (keepPlayersInStandings recounts them).
    migration: '_players_in_standings',
    run: async (db) =>
      keepPlayersInStandings(
        db.prisma,
        (await db.prisma.tournament.findMany({ select: { id: true } })).map((t) => t.id),
      ),
  },
];

/** What the migration's own connections are opened with: the engine of the process that migrates. */
type OpenWith = Pick<NonNullable<Parameters<typeof openDatabase>[1]>, 'engine'>;

export async function migrateDatabase(target: DatabaseTarget, openWith: OpenWith = {}): Promise<string[]> {
  await runPreChecks(target, openWith);
  const applied = await applyMigrations(target);
  const steps = DATA_STEPS.filter((s) => applied.some((name) => name.endsWith(s.migration)));
  if (steps.length) {
    const db = await openDatabase(target, { poolMax: 2, ...openWith });
    try {
      for (const step of steps) await step.run(db);
    } finally {
      await db.close();
    }
  }
  return applied;
}

async function runPreChecks(target: DatabaseTarget, openWith: OpenWith) {
  const done = await appliedMigrationNames(target);
  if (done.size === 0) return; // a new database: nothing to check
  const pending = loadMigrations(target.provider)
    .migrationDirectories.map((d) => d.path)
    .filter((name) => !done.has(name));
  const checks = PRE_CHECKS.filter((c) => pending.some((name) => name.endsWith(c.migration)));
  if (checks.length === 0) return;
  const db = await openDatabase(target, { poolMax: 2, ...openWith });
  try {
    for (const check of checks) await check.run(db);
  } finally {
    await db.close();
  }
}
