-- PostgreSQL only: the rate-limit counters and leases that replicas share. On SQLite one process keeps them in
-- memory (src/security/login-throttle.ts, src/db/leases.ts). This file keeps the providers' folders alike.
SELECT 1;
