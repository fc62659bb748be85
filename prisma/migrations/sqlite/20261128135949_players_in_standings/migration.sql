-- Two things the rankings' variants read from the standings (src/game/ranking-query.ts, decision 0031):
--
-- 1. Who played. A standing row now exists exactly for the users who played in its tournament (a prediction on
--    one of its matches, dream-final picks or a bonus answer in it), so the total of a ranking without people who
--    never played is one count over the standings' index. The triggers below make the row, on zeros, as the first
--    of those is written, whoever writes it (the API, the importer, an operator's SQL). The existing players
--    without a row get theirs from the data step that follows this migration (src/bootstrap/migrate.ts).
-- 2. Round wins among players only ("playerRoundWins"), the ROUND_WINS key when admins are not ranked, kept beside
--    "roundWins" (src/game/round-wins.ts) and read along its own index. The same data step counts them.
--
-- The column is added in place (SQLite can: it has a constant default), so a large table is not copied and the
-- triggers on it and on "User" stay.
ALTER TABLE "TournamentStanding" ADD COLUMN "playerRoundWins" INTEGER NOT NULL DEFAULT 0;

CREATE INDEX "TournamentStanding_player_round_wins_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "playerRoundWins" DESC, "name", "userId");

-- SQLite's planner takes the newest of two indexes that serve a statement equally well: the POINTS rule's index is
-- made again after this one, so its counts keep reading the narrower index.
DROP INDEX "TournamentStanding_points_order_idx";
CREATE INDEX "TournamentStanding_points_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "name", "userId");

-- The same triggers are made again when a later migration redefines one of these tables (src/db/migrations.ts).
CREATE TRIGGER "_prode_prediction_player" AFTER INSERT ON "Prediction"
BEGIN
    INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")
    SELECT t."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL
    FROM "Match" t JOIN "User" u ON u."id" = NEW."userId" WHERE t."id" = NEW."matchId"
    ON CONFLICT ("tournamentId", "userId") DO NOTHING;
END;

CREATE TRIGGER "_prode_dream_final_pick_player" AFTER INSERT ON "DreamFinalPick"
BEGIN
    INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")
    SELECT t."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL
    FROM "DreamFinalsSetting" t JOIN "User" u ON u."id" = NEW."userId" WHERE t."id" = NEW."settingId"
    ON CONFLICT ("tournamentId", "userId") DO NOTHING;
END;

CREATE TRIGGER "_prode_bonus_answer_player" AFTER INSERT ON "BonusAnswer"
BEGIN
    INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")
    SELECT t."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL
    FROM "BonusQuestion" t JOIN "User" u ON u."id" = NEW."userId" WHERE t."id" = NEW."questionId"
    ON CONFLICT ("tournamentId", "userId") DO NOTHING;
END;
