-- The response cache's data version (src/db/data-version.ts): a counter that every committed write to this
-- database moves, visible exactly when the write is (it is a row written in the same transaction). It lives
-- in its own schema, so the Prisma schema (and schema push) never sees it. Readers take the sum of all slots.
--
-- Each write transaction adds 1 to one slot, once. It takes any slot no other open transaction holds (SKIP
-- LOCKED) and adds a slot when all are held, so a writer never waits here and no lock cycle can form with the
-- rows it writes. (Deferred constraint triggers would do it at commit, but Prisma's schema describer panics on
-- them.)
--
-- Prisma's PostgreSQL adapter runs a migration by splitting it at every semicolon, quoted or not, so the
-- PL/pgSQL bodies below are E'' strings that write their semicolons as \073.
CREATE SCHEMA IF NOT EXISTS prode_meta;

CREATE TABLE prode_meta.data_version (
  slot serial PRIMARY KEY,
  v bigint NOT NULL DEFAULT 0
);

INSERT INTO prode_meta.data_version (v) SELECT 0 FROM generate_series(1, 16);

-- Once per transaction: the setting is transaction-local, so it resets at commit or rollback (and at a rollback
-- to a savepoint set before it, together with the bump). A REPEATABLE READ or SERIALIZABLE writer cannot update
-- a slot another transaction committed after its snapshot (serialization failure), so it adds a row instead.
-- Such rows are never merged: nothing here writes above READ COMMITTED, an outside tool that does grows the
-- table by a row per transaction.
CREATE FUNCTION prode_meta.bump_data_version() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF current_setting(''prode.data_version_bumped'', true) IS DISTINCT FROM ''on'' THEN
    IF current_setting(''transaction_isolation'') = ''read committed'' THEN
      UPDATE prode_meta.data_version SET v = v + 1
      WHERE slot = (SELECT slot FROM prode_meta.data_version LIMIT 1 FOR UPDATE SKIP LOCKED)\073
      IF NOT FOUND THEN
        INSERT INTO prode_meta.data_version (v) VALUES (1)\073
      END IF\073
    ELSE
      INSERT INTO prode_meta.data_version (v) VALUES (1)\073
    END IF\073
    PERFORM set_config(''prode.data_version_bumped'', ''on'', true)\073
  END IF\073
  RETURN NULL\073
END';

-- Every table a migration creates must be tracked: test/db/data-version.test.ts fails for one that is not.
-- Row triggers, so a statement that changes no row (an unlike of a post never liked) moves nothing. TRUNCATE has
-- no row triggers. ENABLE ALWAYS: they fire in replica mode too (session_replication_role = replica, logical
-- replication), which would otherwise write unseen.
CREATE FUNCTION prode_meta.track_writes(tbl regclass) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  EXECUTE format(
    ''CREATE TRIGGER prode_data_version AFTER INSERT OR UPDATE OR DELETE ON %s ''
    ''FOR EACH ROW EXECUTE FUNCTION prode_meta.bump_data_version()'', tbl)\073
  EXECUTE format(
    ''CREATE TRIGGER prode_data_version_truncate AFTER TRUNCATE ON %s ''
    ''FOR EACH STATEMENT EXECUTE FUNCTION prode_meta.bump_data_version()'', tbl)\073
  EXECUTE format(''ALTER TABLE %s ENABLE ALWAYS TRIGGER prode_data_version'', tbl)\073
  EXECUTE format(''ALTER TABLE %s ENABLE ALWAYS TRIGGER prode_data_version_truncate'', tbl)\073
END';

SELECT prode_meta.track_writes(c.oid::regclass)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations';
