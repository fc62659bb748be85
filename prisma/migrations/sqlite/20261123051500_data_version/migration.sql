-- PostgreSQL only: its data-version counter and triggers. SQLite's data version comes from the connection
-- (data_version, total_changes()), see src/db/data-version.ts. This file keeps the providers' folders alike.
SELECT 1;
