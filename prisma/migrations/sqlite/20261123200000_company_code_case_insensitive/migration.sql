-- Company codes are unique without regard to case, as x-app-company matches them (src/auth/request-auth.ts).
-- Codes that differ only in case stop the migration before this runs (src/bootstrap/migrate.ts names them).
-- SQLite's lower() folds ASCII letters only, which is all a code may hold (src/domain/company-settings.ts).
CREATE UNIQUE INDEX "Company_code_lower_key" ON "Company"(lower("code"));
