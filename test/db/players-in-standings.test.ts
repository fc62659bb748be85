// Migration 20261128135949_players_in_standings on a database that has data: its data step gives every player a
// standing and removes those of people who do not play, and counts the round wins among players, so the standings
// are what a rebuild from the rows makes; from then on the insert triggers make a player's standing.
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { migrateDatabase } from '../../src/bootstrap/migrate.ts';
import { openDatabase } from '../../src/db/client.ts';
import { rebuildStandings } from '../../src/game/standings.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

const MIGRATION = '20261128135949_players_in_standings';
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

/** SQL that takes the database back to before the migration (its triggers, column and index gone). */
const UNDO: Record<typeof suiteProvider, string[]> = {
  sqlite: [
    'DROP TRIGGER "_prode_prediction_player"',
    'DROP TRIGGER "_prode_dream_final_pick_player"',
    'DROP TRIGGER "_prode_bonus_answer_player"',
    'DROP INDEX "TournamentStanding_player_round_wins_order_idx"',
    'ALTER TABLE "TournamentStanding" DROP COLUMN "playerRoundWins"',
  ],
  postgresql: [
    'DROP TRIGGER prode_prediction_players ON "Prediction"',
    'DROP TRIGGER prode_dream_final_pick_players ON "DreamFinalPick"',
    'DROP TRIGGER prode_bonus_answer_players ON "BonusAnswer"',
    'DROP FUNCTION prode_meta.prediction_players()',
    'DROP FUNCTION prode_meta.dream_final_pick_players()',
    'DROP FUNCTION prode_meta.bonus_answer_players()',
    'ALTER TABLE "TournamentStanding" DROP COLUMN "playerRoundWins"',
  ],
};

describe(`${suiteProvider}: who played, kept in the standings`, () => {
  it('the data step makes the standings those of the players, with their round wins among players', async () => {
    const { target, drop } = await emptyTarget();
    drops.push(drop);
    await migrateDatabase(target);
    const open = () => openDatabase(target, { poolMax: 2 });
    let db = await open();
    const seeded = await seedDemo(db.prisma);
    const tournamentId = seeded.ids.tournament;
    const standings = () =>
      db.prisma.tournamentStanding.findMany({ where: { tournamentId }, orderBy: { userId: 'asc' } });
    await rebuildStandings(db.prisma, [tournamentId]);
    const rebuilt = await standings();
    const [player, idle] = [seeded.ids.users['player3@demo.test'], seeded.ids.users['manager@partners.test']];

    // As before the migration: a player without a standing (one who had only predicted matches to come had none),
    // and one for someone who does not play (a bonus question deleted with their only answer left it).
    for (const sql of UNDO[suiteProvider]) await db.prisma.$executeRawUnsafe(sql);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE "migration_name" = '${MIGRATION}'`);
    await db.prisma.$executeRawUnsafe(
      `DELETE FROM "TournamentStanding" WHERE "tournamentId" = ${tournamentId} AND "userId" = ${player}`,
    );
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name")
       SELECT ${tournamentId}, "id", "companyId", "name" FROM "User" WHERE "id" = ${idle}`,
    );
    await db.close();

    expect(await migrateDatabase(target)).toEqual([MIGRATION]);
    db = await open();
    try {
      expect(await standings()).toEqual(rebuilt);
      // From now on the triggers keep it so: a first prediction makes the standing.
      const match = await db.prisma.match.findFirstOrThrow({ where: { tournamentId } });
      await db.prisma.prediction.create({
        data: { userId: idle, matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 1 },
      });
      const made = await db.prisma.tournamentStanding.findUniqueOrThrow({
        where: { tournamentId_userId: { tournamentId, userId: idle } },
      });
      expect(made).toMatchObject({ points: 0, exactHits: 0, roundWins: 0, playerRoundWins: 0, active: true });
    } finally {
      await db.close();
    }
  });
});
