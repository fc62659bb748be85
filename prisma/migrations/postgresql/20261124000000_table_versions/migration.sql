-- The response cache's data version, per table (src/db/data-version.ts): an answer is kept while the tables it
-- read are unchanged, so a comment no longer throws away every tenant's rankings. The triggers of migration
-- 20261123051500_data_version stay: only the function they run changes, from one counter for the whole
-- database to one counter per table (summed over slots as before).
--
-- Each write transaction adds 1 to one slot of each table it writes, once per table. It takes any slot of that
-- table no other open transaction holds (SKIP LOCKED) and adds a slot when all are held, so a writer never waits
-- here and no lock cycle can form with the rows it writes.
--
-- Prisma's PostgreSQL adapter runs a migration by splitting it at every semicolon, quoted or not, so the
-- PL/pgSQL body below is an E'' string that writes its semicolons as \073.
CREATE TABLE prode_meta.table_version (
  slot serial PRIMARY KEY,
  tbl text NOT NULL,
  v bigint NOT NULL DEFAULT 0
);

CREATE INDEX table_version_tbl ON prode_meta.table_version (tbl);

-- Once per transaction and table: the setting is transaction-local, so it resets at commit or rollback (and at a
-- rollback to a savepoint set before it, together with the bump). A REPEATABLE READ or SERIALIZABLE writer
-- cannot update a slot another transaction committed after its snapshot (serialization failure), so it adds a row
-- instead. TG_TABLE_NAME is the table's name without its schema, as the gateway's SQL quotes it.
CREATE OR REPLACE FUNCTION prode_meta.bump_data_version() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  flag text := ''prode_tv.'' || lower(TG_TABLE_NAME)\073
BEGIN
  IF current_setting(flag, true) IS DISTINCT FROM ''on'' THEN
    IF current_setting(''transaction_isolation'') = ''read committed'' THEN
      UPDATE prode_meta.table_version SET v = v + 1
      WHERE slot = (
        SELECT slot FROM prode_meta.table_version WHERE tbl = TG_TABLE_NAME LIMIT 1 FOR UPDATE SKIP LOCKED
      )\073
      IF NOT FOUND THEN
        INSERT INTO prode_meta.table_version (tbl, v) VALUES (TG_TABLE_NAME, 1)\073
      END IF\073
    ELSE
      INSERT INTO prode_meta.table_version (tbl, v) VALUES (TG_TABLE_NAME, 1)\073
    END IF\073
    PERFORM set_config(flag, ''on'', true)\073
  END IF\073
  RETURN NULL\073
END';

-- Four free slots per table to start with, so the first concurrent writers do not each add one.
INSERT INTO prode_meta.table_version (tbl, v)
SELECT c.relname, 0
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, generate_series(1, 4)
WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations';

DROP TABLE prode_meta.data_version;
