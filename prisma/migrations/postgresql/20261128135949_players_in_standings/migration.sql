-- Two things the rankings' variants read from the standings (src/game/ranking-query.ts, decision 0031):
--
-- 1. Who played. A standing row now exists exactly for the users who played in its tournament (a prediction on
--    one of its matches, dream-final picks or a bonus answer in it), so the total of a ranking without people who
--    never played is one count over the standings' index. The triggers below make the row, on zeros, as the first
--    of those is written, whoever writes it (the API, the importer, an operator's SQL). The existing players
--    without a row get theirs from the data step that follows this migration (src/bootstrap/migrate.ts).
-- 2. Round wins among players only ("playerRoundWins"), the ROUND_WINS key when admins are not ranked, kept beside
--    "roundWins" (src/game/round-wins.ts) and read along its own index. The same data step counts them.
ALTER TABLE "TournamentStanding" ADD COLUMN     "playerRoundWins" INTEGER NOT NULL DEFAULT 0;

CREATE INDEX "TournamentStanding_player_round_wins_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "playerRoundWins" DESC, "name", "userId");

-- Of two indexes that serve a statement equally well the planner may take either: the POINTS rule's index is made
-- again after this one, as on SQLite, so its counts keep reading the narrower index.
DROP INDEX "TournamentStanding_points_order_idx";
CREATE INDEX "TournamentStanding_points_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "name", "userId");

-- One statement trigger per table reading the rows the statement wrote (its transition table), as the write counts
-- do: a row trigger would run PL/pgSQL once per prediction of a bulk insert. Left enabled in the default mode (not
-- ALWAYS): a logical replica receives the standing rows themselves, and a trigger of its own inserting them first
-- would make the replicated inserts fail. The PL/pgSQL bodies write their semicolons as \073 (see migration
-- 20261124225500_write_counts_per_statement_and_owner).
CREATE FUNCTION prode_meta.prediction_players() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")
  SELECT DISTINCT m."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL
  FROM written w JOIN "Match" m ON m."id" = w."matchId" JOIN "User" u ON u."id" = w."userId"
  ON CONFLICT ("tournamentId", "userId") DO NOTHING\073
  RETURN NULL\073
END';

CREATE FUNCTION prode_meta.dream_final_pick_players() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")
  SELECT DISTINCT ds."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL
  FROM written w JOIN "DreamFinalsSetting" ds ON ds."id" = w."settingId" JOIN "User" u ON u."id" = w."userId"
  ON CONFLICT ("tournamentId", "userId") DO NOTHING\073
  RETURN NULL\073
END';

CREATE FUNCTION prode_meta.bonus_answer_players() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active")
  SELECT DISTINCT bq."tournamentId", u."id", u."companyId", u."name", u."deletedAt" IS NULL
  FROM written w JOIN "BonusQuestion" bq ON bq."id" = w."questionId" JOIN "User" u ON u."id" = w."userId"
  ON CONFLICT ("tournamentId", "userId") DO NOTHING\073
  RETURN NULL\073
END';

CREATE TRIGGER prode_prediction_players AFTER INSERT ON "Prediction" REFERENCING NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.prediction_players();

CREATE TRIGGER prode_dream_final_pick_players AFTER INSERT ON "DreamFinalPick" REFERENCING NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.dream_final_pick_players();

CREATE TRIGGER prode_bonus_answer_players AFTER INSERT ON "BonusAnswer" REFERENCING NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bonus_answer_players();
