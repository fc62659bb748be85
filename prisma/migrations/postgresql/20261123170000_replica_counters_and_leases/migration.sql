-- State that the gateway's replicas share on PostgreSQL (on SQLite one process keeps it in memory). Like the data
-- version, it lives in prode_meta, out of the Prisma schema, and is not tracked by the data version: a request
-- counted or a lease taken changes nothing a reader sees, so it must not empty the response cache.
--
-- Fixed-window rate-limit counters (src/db/rate-counters.ts): the general per-address request limit and the login
-- and password-reset throttles. UNLOGGED, because counting a request must cost no WAL, and a crash (which empties
-- an unlogged table) only forgets counts of the current windows. Times are UTC, from the gateway's clock, like
-- Prisma's columns.
CREATE UNLOGGED TABLE prode_meta.rate_limit (
  key text PRIMARY KEY,
  count integer NOT NULL,
  reset_at timestamp(3) NOT NULL
);

CREATE INDEX rate_limit_reset_at ON prode_meta.rate_limit (reset_at);

-- Named leases (src/db/leases.ts): the notifications tick runs its time-based triggers only while it holds one,
-- so they run once per period across replicas.
CREATE TABLE prode_meta.lease (
  name text PRIMARY KEY,
  holder text NOT NULL,
  until timestamp(3) NOT NULL
);
