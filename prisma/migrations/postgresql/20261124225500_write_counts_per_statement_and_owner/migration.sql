-- The response cache's write counts (src/db/data-version.ts), cheaper and finer:
--
-- 1. Per statement, not per row. A row trigger ran PL/pgSQL for each row written: about 0.2 s per 100,000 rows,
--    which a rescoring pays three times (predictions, standings, notifications). Each table now has one statement
--    trigger per kind of write that looks at the rows the statement wrote (its transition table) and moves the
--    table's count, once per write transaction as before, only when the statement wrote a row.
-- 2. Per owner. A write to a prediction also moves the count of its user's bucket, "Prediction@<userId % 256>"
--    (src/db/owned-rows.ts). An answer that read only some users' predictions (the caller's own, say) depends on
--    their buckets and not on the whole table, so one player's prediction no longer throws away every other
--    player's answers. TRUNCATE names no rows: it moves every bucket.
--
-- Counts move with the same SKIP LOCKED slots as before (migration 20261124000000_table_versions). Prisma's
-- PostgreSQL adapter runs a migration by splitting it at every semicolon, quoted or not, so the PL/pgSQL bodies
-- below are E'' strings that write their semicolons as \073. A custom setting's name takes letters, digits and
-- underscores: a bucket's once-per-transaction flag is "prode_tv.prediction_at_17".
CREATE FUNCTION prode_meta.bump_counter(counter text) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  IF current_setting(''transaction_isolation'') = ''read committed'' THEN
    UPDATE prode_meta.table_version SET v = v + 1
    WHERE slot = (
      SELECT slot FROM prode_meta.table_version WHERE tbl = counter LIMIT 1 FOR UPDATE SKIP LOCKED
    )\073
    IF NOT FOUND THEN
      INSERT INTO prode_meta.table_version (tbl, v) VALUES (counter, 1)\073
    END IF\073
  ELSE
    INSERT INTO prode_meta.table_version (tbl, v) VALUES (counter, 1)\073
  END IF\073
END';

CREATE FUNCTION prode_meta.count_written_rows() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  flag text := ''prode_tv.'' || lower(TG_TABLE_NAME)\073
BEGIN
  IF current_setting(flag, true) IS DISTINCT FROM ''on'' AND EXISTS (SELECT 1 FROM written) THEN
    PERFORM prode_meta.bump_counter(TG_TABLE_NAME)\073
    PERFORM set_config(flag, ''on'', true)\073
  END IF\073
  RETURN NULL\073
END';

-- The row trigger goes, and the TRUNCATE trigger (prode_meta.bump_data_version) is made again as it was.
CREATE OR REPLACE FUNCTION prode_meta.track_writes(tbl regclass) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  EXECUTE format(''DROP TRIGGER IF EXISTS prode_data_version ON %s'', tbl)\073
  EXECUTE format(''DROP TRIGGER IF EXISTS prode_data_version_truncate ON %s'', tbl)\073
  EXECUTE format(
    ''CREATE TRIGGER prode_data_version_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS written ''
    ''FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.count_written_rows()'', tbl)\073
  EXECUTE format(
    ''CREATE TRIGGER prode_data_version_update AFTER UPDATE ON %s REFERENCING NEW TABLE AS written ''
    ''FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.count_written_rows()'', tbl)\073
  EXECUTE format(
    ''CREATE TRIGGER prode_data_version_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS written ''
    ''FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.count_written_rows()'', tbl)\073
  EXECUTE format(
    ''CREATE TRIGGER prode_data_version_truncate AFTER TRUNCATE ON %s ''
    ''FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bump_data_version()'', tbl)\073
  EXECUTE format(''ALTER TABLE %s ENABLE ALWAYS TRIGGER prode_data_version_insert'', tbl)\073
  EXECUTE format(''ALTER TABLE %s ENABLE ALWAYS TRIGGER prode_data_version_update'', tbl)\073
  EXECUTE format(''ALTER TABLE %s ENABLE ALWAYS TRIGGER prode_data_version_delete'', tbl)\073
  EXECUTE format(''ALTER TABLE %s ENABLE ALWAYS TRIGGER prode_data_version_truncate'', tbl)\073
END';

SELECT prode_meta.track_writes(c.oid::regclass)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations';

-- An UPDATE's buckets are those of the rows before and after it (a prediction never changes hands: if one did,
-- both owners' answers are stale).
CREATE FUNCTION prode_meta.bump_owner_versions() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  buckets integer[]\073
  b integer\073
  flag text\073
BEGIN
  IF TG_OP = ''UPDATE'' THEN
    buckets := ARRAY(SELECT "userId" % 256 FROM written UNION SELECT "userId" % 256 FROM was)\073
  ELSE
    buckets := ARRAY(SELECT DISTINCT "userId" % 256 FROM written)\073
  END IF\073
  FOREACH b IN ARRAY buckets LOOP
    flag := ''prode_tv.'' || lower(TG_TABLE_NAME) || ''_at_'' || b\073
    IF current_setting(flag, true) IS DISTINCT FROM ''on'' THEN
      PERFORM prode_meta.bump_counter(TG_TABLE_NAME || ''@'' || b)\073
      PERFORM set_config(flag, ''on'', true)\073
    END IF\073
  END LOOP\073
  RETURN NULL\073
END';

CREATE FUNCTION prode_meta.bump_all_owner_versions() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  FOR b IN 0..255 LOOP
    PERFORM prode_meta.bump_counter(TG_TABLE_NAME || ''@'' || b)\073
  END LOOP\073
  RETURN NULL\073
END';

CREATE TRIGGER prode_owner_version_insert AFTER INSERT ON "Prediction" REFERENCING NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bump_owner_versions();

CREATE TRIGGER prode_owner_version_update AFTER UPDATE ON "Prediction" REFERENCING OLD TABLE AS was NEW TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bump_owner_versions();

CREATE TRIGGER prode_owner_version_delete AFTER DELETE ON "Prediction" REFERENCING OLD TABLE AS written
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bump_owner_versions();

CREATE TRIGGER prode_owner_version_truncate AFTER TRUNCATE ON "Prediction"
FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bump_all_owner_versions();

-- Like the table counts: they fire for replication-role sessions too (a restore, a logical replica).
ALTER TABLE "Prediction" ENABLE ALWAYS TRIGGER prode_owner_version_insert;

ALTER TABLE "Prediction" ENABLE ALWAYS TRIGGER prode_owner_version_update;

ALTER TABLE "Prediction" ENABLE ALWAYS TRIGGER prode_owner_version_delete;

ALTER TABLE "Prediction" ENABLE ALWAYS TRIGGER prode_owner_version_truncate;
