-- The response cache's counts per owner (src/db/data-version.ts, "owned rows"): besides its table's count, a
-- write to a prediction moves the count of its user's bucket, "Prediction@<userId % 256>". An answer that read
-- only some users' predictions (the caller's own, say) depends on their buckets and not on the whole table, so
-- one player's prediction no longer throws away every other player's answers.
CREATE TRIGGER "_prode_tv_Prediction_owner_insert" AFTER INSERT ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction@' || (NEW."userId" % 256), 1)
    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_owner_update" AFTER UPDATE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction@' || (NEW."userId" % 256), 1)
    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
    INSERT INTO "_prode_table_version" ("tbl", "v") SELECT 'Prediction@' || (OLD."userId" % 256), 1
    WHERE OLD."userId" % 256 <> NEW."userId" % 256 ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_owner_delete" AFTER DELETE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction@' || (OLD."userId" % 256), 1)
    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
