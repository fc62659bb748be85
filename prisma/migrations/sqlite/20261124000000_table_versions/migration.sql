-- The response cache's data version, per table (src/db/data-version.ts): every row written moves its table's
-- counter in the same transaction, so a reader sees the new count exactly when it sees the rows, whichever
-- connection wrote them (another gateway process, the importer, the sqlite3 shell). An answer is kept while the
-- tables it read are unchanged. A new table needs the same three triggers: npm run db:migration writes them and
-- test/db/data-version.test.ts fails for a table without them.
CREATE TABLE "_prode_table_version" (
    "tbl" TEXT NOT NULL PRIMARY KEY,
    "v" INTEGER NOT NULL DEFAULT 0
);

CREATE TRIGGER "_prode_tv_Company_insert" AFTER INSERT ON "Company" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Company', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Company_update" AFTER UPDATE ON "Company" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Company', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Company_delete" AFTER DELETE ON "Company" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Company', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyExtraField_insert" AFTER INSERT ON "CompanyExtraField" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyExtraField', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyExtraField_update" AFTER UPDATE ON "CompanyExtraField" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyExtraField', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyExtraField_delete" AFTER DELETE ON "CompanyExtraField" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyExtraField', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_User_insert" AFTER INSERT ON "User" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('User', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_User_update" AFTER UPDATE ON "User" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('User', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_User_delete" AFTER DELETE ON "User" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('User', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Area_insert" AFTER INSERT ON "Area" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Area', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Area_update" AFTER UPDATE ON "Area" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Area', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Area_delete" AFTER DELETE ON "Area" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Area', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Invitation_insert" AFTER INSERT ON "Invitation" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Invitation', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Invitation_update" AFTER UPDATE ON "Invitation" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Invitation', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Invitation_delete" AFTER DELETE ON "Invitation" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Invitation', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_News_insert" AFTER INSERT ON "News" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('News', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_News_update" AFTER UPDATE ON "News" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('News', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_News_delete" AFTER DELETE ON "News" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('News', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Country_insert" AFTER INSERT ON "Country" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Country', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Country_update" AFTER UPDATE ON "Country" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Country', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Country_delete" AFTER DELETE ON "Country" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Country', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Team_insert" AFTER INSERT ON "Team" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Team', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Team_update" AFTER UPDATE ON "Team" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Team', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Team_delete" AFTER DELETE ON "Team" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Team', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Tournament_insert" AFTER INSERT ON "Tournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Tournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Tournament_update" AFTER UPDATE ON "Tournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Tournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Tournament_delete" AFTER DELETE ON "Tournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Tournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyTournament_insert" AFTER INSERT ON "CompanyTournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyTournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyTournament_update" AFTER UPDATE ON "CompanyTournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyTournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyTournament_delete" AFTER DELETE ON "CompanyTournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyTournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Round_insert" AFTER INSERT ON "Round" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Round', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Round_update" AFTER UPDATE ON "Round" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Round', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Round_delete" AFTER DELETE ON "Round" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Round', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Match_insert" AFTER INSERT ON "Match" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Match', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Match_update" AFTER UPDATE ON "Match" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Match', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Match_delete" AFTER DELETE ON "Match" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Match', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TournamentStanding_insert" AFTER INSERT ON "TournamentStanding" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TournamentStanding', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TournamentStanding_update" AFTER UPDATE ON "TournamentStanding" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TournamentStanding', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TournamentStanding_delete" AFTER DELETE ON "TournamentStanding" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TournamentStanding', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_insert" AFTER INSERT ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_update" AFTER UPDATE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_delete" AFTER DELETE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_DreamFinalsSetting_insert" AFTER INSERT ON "DreamFinalsSetting" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('DreamFinalsSetting', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_DreamFinalsSetting_update" AFTER UPDATE ON "DreamFinalsSetting" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('DreamFinalsSetting', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_DreamFinalsSetting_delete" AFTER DELETE ON "DreamFinalsSetting" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('DreamFinalsSetting', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_BonusQuestion_insert" AFTER INSERT ON "BonusQuestion" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('BonusQuestion', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_BonusQuestion_update" AFTER UPDATE ON "BonusQuestion" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('BonusQuestion', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_BonusQuestion_delete" AFTER DELETE ON "BonusQuestion" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('BonusQuestion', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_BonusAnswer_insert" AFTER INSERT ON "BonusAnswer" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('BonusAnswer', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_BonusAnswer_update" AFTER UPDATE ON "BonusAnswer" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('BonusAnswer', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_BonusAnswer_delete" AFTER DELETE ON "BonusAnswer" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('BonusAnswer', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_DreamFinalPick_insert" AFTER INSERT ON "DreamFinalPick" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('DreamFinalPick', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_DreamFinalPick_update" AFTER UPDATE ON "DreamFinalPick" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('DreamFinalPick', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_DreamFinalPick_delete" AFTER DELETE ON "DreamFinalPick" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('DreamFinalPick', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Post_insert" AFTER INSERT ON "Post" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Post', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Post_update" AFTER UPDATE ON "Post" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Post', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Post_delete" AFTER DELETE ON "Post" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Post', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostComment_insert" AFTER INSERT ON "PostComment" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostComment', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostComment_update" AFTER UPDATE ON "PostComment" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostComment', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostComment_delete" AFTER DELETE ON "PostComment" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostComment', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostLike_insert" AFTER INSERT ON "PostLike" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostLike', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostLike_update" AFTER UPDATE ON "PostLike" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostLike', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostLike_delete" AFTER DELETE ON "PostLike" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostLike', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostCommentLike_insert" AFTER INSERT ON "PostCommentLike" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostCommentLike', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostCommentLike_update" AFTER UPDATE ON "PostCommentLike" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostCommentLike', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PostCommentLike_delete" AFTER DELETE ON "PostCommentLike" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PostCommentLike', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_FirebaseToken_insert" AFTER INSERT ON "FirebaseToken" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('FirebaseToken', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_FirebaseToken_update" AFTER UPDATE ON "FirebaseToken" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('FirebaseToken', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_FirebaseToken_delete" AFTER DELETE ON "FirebaseToken" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('FirebaseToken', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRanking_insert" AFTER INSERT ON "InternalRanking" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRanking', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRanking_update" AFTER UPDATE ON "InternalRanking" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRanking', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRanking_delete" AFTER DELETE ON "InternalRanking" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRanking', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRankingMembership_insert" AFTER INSERT ON "InternalRankingMembership" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRankingMembership', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRankingMembership_update" AFTER UPDATE ON "InternalRankingMembership" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRankingMembership', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRankingMembership_delete" AFTER DELETE ON "InternalRankingMembership" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRankingMembership', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRankingInvitation_insert" AFTER INSERT ON "InternalRankingInvitation" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRankingInvitation', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRankingInvitation_update" AFTER UPDATE ON "InternalRankingInvitation" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRankingInvitation', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_InternalRankingInvitation_delete" AFTER DELETE ON "InternalRankingInvitation" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('InternalRankingInvitation', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaQuestion_insert" AFTER INSERT ON "TriviaQuestion" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaQuestion', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaQuestion_update" AFTER UPDATE ON "TriviaQuestion" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaQuestion', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaQuestion_delete" AFTER DELETE ON "TriviaQuestion" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaQuestion', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaAnswer_insert" AFTER INSERT ON "TriviaAnswer" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaAnswer', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaAnswer_update" AFTER UPDATE ON "TriviaAnswer" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaAnswer', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaAnswer_delete" AFTER DELETE ON "TriviaAnswer" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaAnswer', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaSolution_insert" AFTER INSERT ON "TriviaSolution" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaSolution', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaSolution_update" AFTER UPDATE ON "TriviaSolution" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaSolution', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TriviaSolution_delete" AFTER DELETE ON "TriviaSolution" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TriviaSolution', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Notification_insert" AFTER INSERT ON "Notification" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Notification', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Notification_update" AFTER UPDATE ON "Notification" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Notification', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Notification_delete" AFTER DELETE ON "Notification" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Notification', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_AccountToken_insert" AFTER INSERT ON "AccountToken" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('AccountToken', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_AccountToken_update" AFTER UPDATE ON "AccountToken" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('AccountToken', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_AccountToken_delete" AFTER DELETE ON "AccountToken" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('AccountToken', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_OutgoingEmail_insert" AFTER INSERT ON "OutgoingEmail" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('OutgoingEmail', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_OutgoingEmail_update" AFTER UPDATE ON "OutgoingEmail" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('OutgoingEmail', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_OutgoingEmail_delete" AFTER DELETE ON "OutgoingEmail" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('OutgoingEmail', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
